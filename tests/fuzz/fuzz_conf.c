/* libFuzzer harness: the machine-file and option parser (lib/core/conf.c,
 * lib/core/machine.c, lib/core/time.c) through the calls the engine makes
 * at boot (lib/core/engine.c): mcei_config_parse over a config file, MCE_*
 * variables and --mce-* options, then mcei_machine_load with the
 * --mce-set overrides, the typed getters and the unused-key check, and the
 * TCS linker's machine reader (mcei_tcs_machine).
 *
 * Input: sections separated by lines "%%":
 *   1. a machine file (loaded by path; may say "inherit = ideal" etc.),
 *   2. a config file (given as --mce-config=FILE when not empty),
 *   3. command-line arguments, one a line (e.g. --mce-set=key=value),
 *   4. environment entries, one a line (e.g. MCE_NODES=4).
 * Every error must be a clean return with a message; the sanitizers
 * catch the rest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "machine.h"

#include "../../lib/api/tcs/tcs_link.h"

#define MAX_LINES 256

static char dir[64], mfile[96], cfile[96];

static void write_file(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        abort();
    if (n && fwrite(s, 1, n, f) != n)
        abort();
    fclose(f);
}

/* Split s[0..n) at '\n' into at most MAX_LINES NUL-terminated strings
 * (s is a writable copy). */
static int split_lines(char *s, size_t n, char **out)
{
    int k = 0;
    size_t i = 0;
    while (i < n && k < MAX_LINES) {
        char *nl = memchr(s + i, '\n', n - i);
        size_t len = nl ? (size_t)(nl - (s + i)) : n - i;
        s[i + len] = '\0';
        out[k++] = s + i;
        i += len + 1;
    }
    return k;
}

/* Use the machine as the engine and the models do: every key read through
 * one of the typed getters (chosen by its hash, so that all three parse
 * every kind of value), some left unread for the unused-key check. */
static void use_machine(mcei_machine_t *m)
{
    char err[1024];
    uint64_t v;
    mcei_tcs_machine_t mc;
    mcei_machine_str(m, "network", NULL);
    mcei_machine_str(m, "protocol", "native");
    (void)mcei_machine_u64(m, "nodes", 0, 0, &v, err, sizeof(err));
    for (size_t i = 0; i < m->kv.count; i++) {
        const char *k = m->kv.items[i].key;
        unsigned h = 0;
        for (const char *p = k; *p; p++)
            h = h * 31u + (unsigned char)*p;
        switch (h % 5) {
        case 0:
            (void)mcei_machine_time(m, k, 1, 0, &v, err, sizeof(err));
            break;
        case 1:
            (void)mcei_machine_u64(m, k, 1, 0, &v, err, sizeof(err));
            break;
        case 2:
            (void)mcei_machine_micro(m, k, 1, 0, &v, err, sizeof(err));
            break;
        case 3:
            (void)mcei_parse_size(m->kv.items[i].value, &v);
            break;
        default:
            break; /* unread */
        }
    }
    (void)mcei_tcs_machine(m, &mc, err, sizeof(err));
    mcei_machine_skip_prefix(m, "tcs.");
    (void)mcei_machine_check_unused(m, err, sizeof(err));
}

static void cleanup(void)
{
    unlink(mfile);
    unlink(cfile);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* /dev/shm when there is one: the two files are written per input. */
    snprintf(dir, sizeof(dir), "%s/mcemu-fuzz-conf.XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (mkdtemp(dir) == NULL)
        abort();
    snprintf(mfile, sizeof(mfile), "%s/m.conf", dir);
    snprintf(cfile, sizeof(cfile), "%s/c.conf", dir);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *sec[4] = {"", "", "", ""};
    size_t len[4] = {0, 0, 0, 0};
    char *buf, *argl[MAX_LINES], *envl[MAX_LINES];
    char *argv[MAX_LINES + 3], *envp[MAX_LINES + 1];
    char cfgopt[128], err[1024];
    int argc = 0, nargs, nenv, ns = 0;
    size_t start = 0;
    mcei_config_t cfg;
    mcei_machine_t m = {0};

    if (size > 1 << 16)
        return 0;
    if ((buf = malloc(size + 1)) == NULL)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    /* Cut at lines "%%" (the last section takes the rest). */
    for (size_t i = 0; i <= size && ns < 3; i++) {
        if ((i == 0 || buf[i - 1] == '\n') && size - i >= 2 && buf[i] == '%' &&
            buf[i + 1] == '%' && (i + 2 == size || buf[i + 2] == '\n')) {
            sec[ns] = buf + start;
            len[ns] = i - start;
            ns++;
            start = i + 3 > size ? size : i + 3;
            i += 2;
        }
    }
    sec[ns] = buf + start;
    len[ns] = size - start;

    write_file(mfile, sec[0], len[0]);
    write_file(cfile, sec[1], len[1]);

    argv[argc++] = "prog";
    if (len[1] > 0) {
        snprintf(cfgopt, sizeof(cfgopt), "--mce-config=%s", cfile);
        argv[argc++] = cfgopt;
    }
    nargs = split_lines((char *)sec[2], len[2], argl);
    for (int i = 0; i < nargs; i++)
        argv[argc++] = argl[i];
    argv[argc] = NULL;
    nenv = split_lines((char *)sec[3], len[3], envl);
    for (int i = 0; i < nenv; i++)
        envp[i] = envl[i];
    envp[nenv] = NULL;

    err[0] = '\0';
    mcei_config_defaults(&cfg);
    if (mcei_config_parse(&cfg, &argc, argv, envp, err, sizeof(err)) ==
        MCE_OK) {
        /* The program's own arguments stay, NULL-terminated. */
        if (argc < 1 || argv[argc] != NULL)
            abort();
        /* An empty machine section: the machine the options name (the
         * search path as given), else the file. */
        const char *which = len[0] == 0 && cfg.machine ? cfg.machine : mfile;
        if (mcei_machine_load(&m, which, cfg.machine_path, &cfg.overrides, err,
                              sizeof(err)) == MCE_OK) {
            if (m.name == NULL || m.path == NULL)
                abort();
            use_machine(&m);
            mcei_machine_free(&m);
        } else if (err[0] == '\0') {
            abort();
        }
    } else if (err[0] == '\0') {
        abort(); /* an error must say what is wrong */
    }
    mcei_config_free(&cfg);
    free(buf);
    return 0;
}
