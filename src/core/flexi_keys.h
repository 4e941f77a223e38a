/* FLEXI's parameter vocabulary and what hexdg does with each key.
 *
 * Every key of FLEXI's option registry (prms%Create...Option in FLEXI's sources, GALAEXI's keys
 * included) is listed once with the FLEXI module that defines it and hexdg's disposition:
 *   implemented  hexdg registers the key with FLEXI's meaning, default and integer codes;
 *   noeffect     accepted with one notice "<key> has no effect in hexdg (<why>)": the key only
 *                concerns FLEXI's logging, output cosmetics, or is read by FLEXI only under a
 *                switch that is off;
 *   off_only     accepted while its value is one of FLEXI's "feature off" values (listed), else
 *                refused like a refused key (hexdg lacks the feature it switches on);
 *   refused      an error naming the FLEXI feature hexdg lacks and the nearest hexdg alternative.
 * A key hexdg registers is implemented whatever the table says (the registry is asked first);
 * the table is consulted for keys the registry does not know. docs/flexi_parameters.md is
 * generated from it (hexdg --help --flexi-keys). */
#ifndef HEXDG_FLEXI_KEYS_H
#define HEXDG_FLEXI_KEYS_H
#include <stdio.h>

typedef enum {
  FLEXI_KEY_IMPLEMENTED,
  FLEXI_KEY_NOEFFECT,
  FLEXI_KEY_OFF_ONLY,
  FLEXI_KEY_REFUSED
} FlexiKeyDisposition;

typedef struct {
  const char *name;   /* FLEXI's spelling */
  const char *module; /* FLEXI source that defines it, e.g. "output" */
  FlexiKeyDisposition disposition;
  const char *off_values; /* FLEXI_KEY_OFF_ONLY: accepted values separated by '|' */
  const char *why;        /* noeffect: why it changes nothing; refused/off_only: the missing
                             feature and hexdg's nearest alternative; implemented: notes */
} FlexiKey;

/* The table entry of a key (case-insensitive), or NULL if FLEXI does not know it. */
const FlexiKey *flexi_key_find(const char *name);
int flexi_key_count(void);
const FlexiKey *flexi_key_at(int index);
const char *flexi_key_disposition_name(FlexiKeyDisposition d);

/* True if value is one of the key's off_values (logicals, numbers and names compared by meaning:
 * "F" = ".false.", "0." = "0"). */
int flexi_key_value_is_off(const FlexiKey *key, const char *value);

/* docs/flexi_parameters.md: the table as Markdown, one section per disposition. */
void flexi_keys_write_markdown(FILE *f);

#endif
