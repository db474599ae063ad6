/* mce-predict, Mudge, Buzzard and Abdel-Rahman 1987 (NCUBE): Table 1
 * and t'_comm of Table 2. */
#include "predict.h"

/* Mudge, Buzzard and Abdel-Rahman 1987, Table 1. */
struct constant ncube[] = {{"std_fixed", C_TIME, 0, 4664000000, "us",
                            "Mudge-Buzzard-Abdel-Rahman-1987:Table_1"},
                           {"std_per_byte", C_TIME, 0, 31400000, "us/byte",
                            "Mudge-Buzzard-Abdel-Rahman-1987:Table_1"},
                           {"ext_fixed", C_TIME, 0, 832000000, "us",
                            "Mudge-Buzzard-Abdel-Rahman-1987:Table_1"},
                           {"ext_per_byte", C_TIME, 0, 12900000, "us/byte",
                            "Mudge-Buzzard-Abdel-Rahman-1987:Table_1"},
                           {NULL, 0, 0, 0, NULL, NULL}};
enum { NSF, NSB, NEF, NEB };

/* ---- NCUBE (Mudge, Buzzard and Abdel-Rahman 1987)
 * --------------------------------------------------- */

static const char *const schemes[] = {"standard", "extended", "both", NULL};

static void ncube_line(int scheme, int64_t m, int paper_hundredths)
{
    int64_t f = C(ncube, scheme ? NEF : NSF), x = C(ncube, scheme ? NEB : NSB);
    int64_t t = add(f, mul(m, x)), t4 = mul(4, t);
    kv_s("scheme", schemes[scheme]);
    kv_i("m", m);
    kv_t("fixed", f);
    kv_t("per_byte", x);
    kv_t("tcomm", t);
    if (m > 0)
        kv_t_ratio("tcomm_word", t4, m);
    else
        kv_t_na("tcomm_word");
    if (paper_hundredths >= 0) {
        int64_t p = (int64_t)paper_hundredths * (UNITS_PER_US / 100);
        kv_t("paper", p);
        kv_t("diff", rdiv(t4, m) - p);
    }
    kv_end();
}

void cmd_ncube(int argc, char **argv)
{
    struct opts o = {{"m", "scheme", NULL}, {0}};
    int sch;
    int64_t m;
    parse_opts(argc, argv, &o, ncube);
    m = opt_int(&o, "m", 0, INT64_MAX / 2, 0, 1);
    sch = opt_choice(&o, "scheme", schemes, 2);
    for (int i = 0; i < 2; i++)
        if (sch == 2 || sch == i)
            ncube_line(i, m, -1);
}

void cmd_ncube_table2(int argc, char **argv)
{
    /* Table 2 of Mudge, Buzzard and Abdel-Rahman 1987, NCUBE columns, in
     * hundredths of a us. */
    static const int rows[][3] = {
        {8, 24576, 4676}, {64, 4179, 1037}, {256, 1988, 645}};
    struct opts o = {{NULL}, {0}};
    parse_opts(argc, argv, &o, ncube);
    for (int i = 0; i < 3; i++)
        for (int s = 0; s < 2; s++)
            ncube_line(s, rows[i][0], rows[i][1 + s]);
}
