/* The result table of `hexdg regress`: plain text for the terminal, Markdown for docs. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "app/regress.h"

const char *rg_status_name(int status) {
  switch (status) {
  case RG_PASS:
    return "pass";
  case RG_FAIL:
    return "FAIL";
  case RG_UNSUPPORTED:
    return "not supported";
  case RG_SKIPPED:
    return "skipped";
  default:
    return "dry run";
  }
}

static int width(const RgTable *t, size_t offset, int header) {
  int w = header;
  for (int i = 0; i < t->n; i++) {
    int len = (int)strlen((const char *)&t->rows[i] + offset);
    if (len > w) w = len;
  }
  return w > 48 ? 48 : w;
}

void rg_report_text(const RgTable *t, FILE *f) {
  int wc = width(t, offsetof(RgRow, check), 5), wb = width(t, offsetof(RgRow, build), 5);
  int wr = width(t, offsetof(RgRow, run), 3), wa = width(t, offsetof(RgRow, analyzer), 8);
  int wm = width(t, offsetof(RgRow, measured), 8), wt = width(t, offsetof(RgRow, tolerance), 9);
  fprintf(f, "%-*s  %-*s  %-*s  %-*s  %-*s  %-*s  %-13s  %s\n", wc, "check", wb, "build", wr, "run",
          wa, "analyzer", wm, "measured", wt, "tolerance", "result", "details");
  for (int i = 0; i < t->n; i++) {
    const RgRow *r = &t->rows[i];
    fprintf(f, "%-*s  %-*s  %-*s  %-*s  %-*s  %-*s  %-13s  %s\n", wc, r->check, wb,
            r->build[0] ? r->build : "-", wr, r->run[0] ? r->run : "-", wa, r->analyzer, wm,
            r->measured[0] ? r->measured : "-", wt, r->tolerance[0] ? r->tolerance : "-",
            rg_status_name(r->status), r->reason);
  }
}

/* a table cell: '|' would end the cell */
static void cell(FILE *f, const char *s) {
  fputc(' ', f);
  if (!s[0]) fputc('-', f);
  for (; *s; s++)
    fputs(*s == '|' ? "\\|" : (char[2]){*s, '\0'}, f);
  fputs(" |", f);
}

void rg_report_markdown(const RgTable *t, FILE *f, const char *title) {
  int count[5] = {0};
  for (int i = 0; i < t->n; i++)
    count[t->rows[i].status]++;
  if (title) fprintf(f, "# %s\n\n", title);
  fprintf(f, "%d rows: %d pass, %d fail, %d not supported, %d skipped.\n\n", t->n, count[RG_PASS],
          count[RG_FAIL], count[RG_UNSUPPORTED], count[RG_SKIPPED]);
  fputs("| check | build | run | analyzer | measured | tolerance | result | details |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n",
        f);
  for (int i = 0; i < t->n; i++) {
    const RgRow *r = &t->rows[i];
    fputc('|', f);
    cell(f, r->check);
    cell(f, r->build);
    cell(f, r->run);
    cell(f, r->analyzer);
    cell(f, r->measured);
    cell(f, r->tolerance);
    cell(f, rg_status_name(r->status));
    cell(f, r->reason);
    fputc('\n', f);
  }
}
