/* The key tables of this layer's plug-ins (lib/core/machine.h): the
 * machine-file keys each reads, one entry per key, with kind, unit, range,
 * default, label and source.  Data only, so that a harness can link the
 * tables without the models (tests/fuzz). */
#ifndef MCEI_MACHINES_KEYS_H
#define MCEI_MACHINES_KEYS_H

#include "../core/machine.h"

extern const mcei_keytab_t mcei_proto_nx_keytab;    /* machines/nx/nxproto.c */
extern const mcei_keytab_t mcei_proto_ncube_keytab; /* machines/ncube/ncube.c */
extern const mcei_keytab_t mcei_proto_ncube2_keytab; /* ncube/ncube2.c */
extern const mcei_keytab_t mcei_proto_iwarp_keytab; /* machines/iwarp/iwarp.c */

#endif
