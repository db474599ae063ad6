/* The key tables of this layer's plug-ins (lib/core/machine.h): the
 * machine-file keys each reads, one entry per key, with kind, unit, range,
 * default, label and source.  Data only, so that a harness can link the
 * tables without the models (tests/fuzz). */
#ifndef MCEI_NET_KEYS_H
#define MCEI_NET_KEYS_H

#include "../core/machine.h"

extern const mcei_keytab_t mcei_net_ideal_keytab;   /* net/ideal.c */
extern const mcei_keytab_t mcei_net_ipsc_keytab;    /* net/ipsc.c */
extern const mcei_keytab_t mcei_net_paragon_keytab; /* net/paragon.c */
extern const mcei_keytab_t mcei_net_iwarp_keytab;   /* net/iwarp.c */

#endif
