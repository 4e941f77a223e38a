/* Expression evaluator for parameter values: numbers with pi, + - * / ( ) and Fortran's e/d
 * exponents (1.d-3). Grammar: sum := product {(+|-) product}; product := unary {(*|/) unary};
 * unary := (+|-) unary | primary; primary := number | pi | ( sum ). */
#include "core/params.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

enum { EXPR_MAX_DEPTH = 256 };
static const double pi_value = 3.14159265358979323846;

typedef struct {
  const char *pos;
  const char *why; /* first problem found */
  int depth;
} ExprParser;

static bool expr_fail(ExprParser *ep, const char *why) {
  if (!ep->why) ep->why = why;
  return false;
}

static void expr_skip_spaces(ExprParser *ep) {
  while (isspace((unsigned char)*ep->pos))
    ep->pos++;
}

/* A literal such as 3, .5, 1.e-3 or Fortran's 1.d-3 (d marks the exponent like e). */
static bool expr_number(ExprParser *ep, double *value) {
  const char *start = ep->pos, *q = start;
  int digits = 0;
  for (; isdigit((unsigned char)*q); q++)
    digits++;
  if (*q == '.')
    for (q++; isdigit((unsigned char)*q); q++)
      digits++;
  if (digits == 0) return expr_fail(ep, "expected a number, pi or '('");
  if (*q && strchr("eEdD", *q)) {
    const char *exponent = q + 1;
    if (*exponent == '+' || *exponent == '-') exponent++;
    if (!isdigit((unsigned char)*exponent)) return expr_fail(ep, "incomplete exponent");
    while (isdigit((unsigned char)*exponent))
      exponent++;
    q = exponent;
  }
  size_t len = (size_t)(q - start);
  char *literal = malloc(len + 1);
  if (!literal) return expr_fail(ep, "out of memory");
  for (size_t i = 0; i < len; i++)
    literal[i] = (start[i] == 'd' || start[i] == 'D') ? 'e' : start[i];
  literal[len] = '\0';
  char *end;
  *value = strtod(literal, &end);
  bool parsed = end == literal + len;
  free(literal);
  ep->pos = q;
  return parsed || expr_fail(ep, "malformed number");
}

static bool expr_sum(ExprParser *ep, double *value);

static bool expr_primary(ExprParser *ep, double *value) {
  const char *s = ep->pos;
  if (*s == '(') {
    ep->pos++;
    if (!expr_sum(ep, value)) return false;
    expr_skip_spaces(ep);
    if (*ep->pos != ')') return expr_fail(ep, "missing ')'");
    ep->pos++;
    return true;
  }
  if (tolower((unsigned char)s[0]) == 'p' && tolower((unsigned char)s[1]) == 'i' &&
      !isalnum((unsigned char)s[2]) && s[2] != '_') {
    *value = pi_value;
    ep->pos += 2;
    return true;
  }
  return expr_number(ep, value);
}

static bool expr_unary(ExprParser *ep, double *value) {
  if (++ep->depth > EXPR_MAX_DEPTH) return expr_fail(ep, "expression nested too deeply");
  expr_skip_spaces(ep);
  bool ok;
  if (*ep->pos == '-' || *ep->pos == '+') {
    bool negate = *ep->pos++ == '-';
    ok = expr_unary(ep, value);
    if (ok && negate) *value = -*value;
  } else {
    ok = expr_primary(ep, value);
  }
  ep->depth--;
  return ok;
}

static bool expr_product(ExprParser *ep, double *value) {
  if (!expr_unary(ep, value)) return false;
  for (;;) {
    expr_skip_spaces(ep);
    char op = *ep->pos;
    if (op != '*' && op != '/') return true;
    ep->pos++;
    double rhs;
    if (!expr_unary(ep, &rhs)) return false;
    if (op == '/' && rhs == 0.0) return expr_fail(ep, "division by zero");
    *value = op == '*' ? *value * rhs : *value / rhs;
  }
}

static bool expr_sum(ExprParser *ep, double *value) {
  if (!expr_product(ep, value)) return false;
  for (;;) {
    expr_skip_spaces(ep);
    char op = *ep->pos;
    if (op != '+' && op != '-') return true;
    ep->pos++;
    double rhs;
    if (!expr_product(ep, &rhs)) return false;
    *value = op == '+' ? *value + rhs : *value - rhs;
  }
}

bool params_eval_real_quiet(const char *text, double *out, const char **why) {
  ExprParser ep = {text, NULL, 0};
  double value = 0.0;
  bool ok = expr_sum(&ep, &value);
  if (ok) {
    expr_skip_spaces(&ep);
    if (*ep.pos) ok = expr_fail(&ep, "unexpected text after the expression");
  }
  if (ok && !isfinite(value)) ok = expr_fail(&ep, "the result is not a finite number");
  if (ok) *out = value;
  if (why) *why = ep.why;
  return ok;
}

int params_eval_real(const char *text, double *out) {
  const char *why = NULL;
  if (!params_eval_real_quiet(text, out, &why))
    return HX_ERROR(HX_ERR_INPUT, "cannot evaluate '%s' as a number: %s", text, why);
  return HX_OK;
}
