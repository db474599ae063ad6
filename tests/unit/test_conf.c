/* Unit tests for the run configuration (options, environment, config
 * file), key = value files and machine descriptions (lib/core/conf.c,
 * lib/core/machine.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "machine.h"

/* ---- temporary files --------------------------------------------------- */

#define MAX_TMP 64
static char *tmp_files[MAX_TMP];
static size_t ntmp_files;
static char tmp_dir[64];

static void remember(char *path)
{
    assert_true(ntmp_files < MAX_TMP);
    tmp_files[ntmp_files++] = path;
}

static void write_all(const char *path, int fd, const char *text)
{
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w <= 0)
            fail_msg("write %s failed", path);
        done += (size_t)w;
    }
}

/* A new file with @p text made by mkstemp in the test's directory;
 * removed by the teardown. */
static char *tmp_file(const char *text)
{
    size_t len = strlen(tmp_dir) + sizeof("/cfg-XXXXXX");
    char *path = malloc(len);
    int fd;
    if (path == NULL)
        abort();
    snprintf(path, len, "%s/cfg-XXXXXX", tmp_dir);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    write_all(path, fd, text);
    close(fd);
    remember(path);
    return path;
}

/* A file named @p name in the test's directory (for machine names). */
static char *dir_file(const char *name, const char *text)
{
    char *path = malloc(strlen(tmp_dir) + strlen(name) + 2);
    FILE *f;
    if (path == NULL)
        abort();
    snprintf(path, strlen(tmp_dir) + strlen(name) + 2, "%s/%s", tmp_dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
    remember(path);
    return path;
}

static int group_setup(void **state)
{
    (void)state;
    strcpy(tmp_dir, "/tmp/mcemu-test-machines-XXXXXX");
    if (mkdtemp(tmp_dir) == NULL)
        return -1;
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    while (ntmp_files > 0) {
        char *p = tmp_files[--ntmp_files];
        unlink(p);
        free(p);
    }
    rmdir(tmp_dir);
    return 0;
}

/* ---- argv helpers ------------------------------------------------------ */

#define MAX_ARGS 32

typedef struct args {
    int argc;
    char *argv[MAX_ARGS + 1];
} args_t;

/* Fill @p a from a NULL-terminated list (list[0] is the program name). */
static void make_args(args_t *a, const char *const *list)
{
    a->argc = 0;
    while (list[a->argc] != NULL) {
        assert_true(a->argc < MAX_ARGS);
        a->argv[a->argc] = (char *)list[a->argc];
        a->argc++;
    }
    a->argv[a->argc] = NULL;
}

/* argv must now hold exactly the NULL-terminated @p want. */
static void expect_argv(const args_t *a, const char *const *want)
{
    int n = 0;
    while (want[n] != NULL)
        n++;
    if (a->argc != n) {
        for (int i = 0; i < a->argc; i++)
            print_error("argv[%d] = '%s'\n", i, a->argv[i]);
    }
    assert_int_equal(a->argc, n);
    for (int i = 0; i < n; i++)
        assert_string_equal(a->argv[i], want[i]);
    assert_null(a->argv[n]);
}

/* Parse @p argl / @p envp into a fresh config; returns the status. */
static int parse(mcei_config_t *cfg, args_t *a, const char *const *argl,
                 char **envp, char *err, size_t errlen)
{
    make_args(a, argl);
    mcei_config_defaults(cfg);
    err[0] = '\0';
    return mcei_config_parse(cfg, &a->argc, a->argv, envp, err, errlen);
}

static void expect_override(mcei_config_t *cfg, const char *key,
                            const char *value)
{
    mcei_kv_t *kv = mcei_kv_find(&cfg->overrides, key);
    assert_non_null(kv);
    assert_string_equal(kv->value, value);
}

/* ---- mcei_config_parse ------------------------------------------------- */

static void test_config_defaults(void **state)
{
    (void)state;
    mcei_config_t cfg;
    args_t a;
    char err[512];
    char *env[] = {"HOME=/root",      "PATH=/bin:/usr/bin", "MCEX=1",
                   "NOT_MCE_NODES=3", "mce_nodes=4",        NULL};
    static const char *const argl[] = {"prog", NULL};
    assert_int_equal(parse(&cfg, &a, argl, env, err, sizeof(err)), MCE_OK);
    expect_argv(&a, argl);
    assert_int_equal(cfg.nodes, 0);
    assert_null(cfg.machine);
    assert_null(cfg.machine_path);
    assert_null(cfg.trace);
    assert_null(cfg.config_file);
    assert_int_equal(cfg.compute, MCEI_COMPUTE_DEFAULT);
    assert_int_equal(cfg.placement, MCEI_PLACE_BLOCK);
    assert_int_equal(cfg.privatize, MCEI_PRIV_AUTO);
    assert_int_equal(cfg.stack_size, 1024 * 1024);
    assert_int_equal(cfg.seed, 1);
    assert_int_equal(cfg.summary, 0);
    assert_int_equal(cfg.help, 0);
    assert_int_equal(cfg.verbose, 0);
    assert_int_equal(cfg.overrides.count, 0);
    mcei_config_free(&cfg);

    /* no environment at all */
    assert_int_equal(parse(&cfg, &a, argl, NULL, err, sizeof(err)), MCE_OK);
    assert_int_equal(cfg.nodes, 0);
    mcei_config_free(&cfg);
}

static void test_config_options_removed(void **state)
{
    (void)state;
    mcei_config_t cfg;
    args_t a;
    char err[512];
    static const char *const argl[] = {"prog",
                                       "a",
                                       "--mce-nodes=4",
                                       "b",
                                       "--mce-summary",
                                       "c",
                                       "--mce-machine=foo",
                                       "-x",
                                       "--mce-set=latency=3us",
                                       "--mce-set=per_byte=1 ns",
                                       "--mce-placement=cyclic",
                                       "--mce",
                                       "d",
                                       "--mce-set=latency=4us",
                                       "-mce-nodes=9",
                                       NULL};
    static const char *const want[] = {
        "prog", "a", "b", "c", "-x", "--mce", "d", "-mce-nodes=9", NULL};
    assert_int_equal(parse(&cfg, &a, argl, NULL, err, sizeof(err)), MCE_OK);
    expect_argv(&a, want);
    assert_int_equal(cfg.nodes, 4);
    assert_int_equal(cfg.summary, 1);
    assert_string_equal(cfg.machine, "foo");
    assert_int_equal(cfg.placement, MCEI_PLACE_CYCLIC);
    /* --mce-set accumulates; a later one for the same key wins */
    assert_int_equal(cfg.overrides.count, 2);
    expect_override(&cfg, "latency", "4us");
    expect_override(&cfg, "per_byte", "1 ns");
    assert_non_null(
        strstr(mcei_kv_find(&cfg.overrides, "latency")->origin, "--mce-set"));
    mcei_config_free(&cfg);
}

/* A plug-in's option (a personality's, e.g. --mce-tcs): registered in the
 * core, given by option, environment or config file, checked against its
 * choices and read back as the index of the choice. */
static void test_config_plugin_option(void **state)
{
    (void)state;
    static const char *const shapes[] = {"round", "square", NULL};
    static const mcei_plugin_opt_t shape = {.name = "plugin-shape",
                                            .choices = shapes,
                                            .arg = "round|square",
                                            .help = "a test option"};
    static const mcei_plugin_opt_t nodes = {.name = "nodes",
                                            .choices = shapes,
                                            .arg = "round|square",
                                            .help = "a core name"};
    mcei_config_t cfg;
    args_t a;
    char err[512], *buf = NULL;
    size_t len = 0;
    FILE *f;
    char *env[] = {"MCE_PLUGIN_SHAPE=square", NULL};
    static const char *const none[] = {"prog", NULL};
    static const char *const given[] = {"prog", "--mce-plugin-shape=square",
                                        "x", NULL};
    static const char *const bad[] = {"prog", "--mce-plugin-shape=oval", NULL};
    static const char *const rest[] = {"prog", "x", NULL};

    assert_int_equal(mcei_register_option(&shape), MCE_OK);
    assert_int_equal(mcei_register_option(&shape), MCE_ERR_INVAL);
    assert_int_equal(mcei_register_option(&nodes), MCE_ERR_INVAL);

    assert_int_equal(parse(&cfg, &a, none, NULL, err, sizeof(err)), MCE_OK);
    assert_int_equal(mcei_config_choice(&cfg, &shape), 0);
    mcei_config_free(&cfg);
    assert_int_equal(parse(&cfg, &a, given, NULL, err, sizeof(err)), MCE_OK);
    expect_argv(&a, rest);
    assert_int_equal(mcei_config_choice(&cfg, &shape), 1);
    mcei_config_free(&cfg);
    assert_int_equal(parse(&cfg, &a, none, env, err, sizeof(err)), MCE_OK);
    assert_int_equal(mcei_config_choice(&cfg, &shape), 1);
    mcei_config_free(&cfg);
    assert_int_equal(parse(&cfg, &a, bad, NULL, err, sizeof(err)),
                     MCE_ERR_CONFIG);
    assert_string_equal(
        err, "option --mce-plugin-shape: 'oval' is not one of round|square");
    mcei_config_free(&cfg);

    f = open_memstream(&buf, &len);
    assert_non_null(f);
    mcei_config_help(f);
    fclose(f);
    assert_non_null(strstr(buf, "--mce-plugin-shape=round|square"));
    free(buf);
}

static void test_config_every_option(void **state)
{
    (void)state;
    mcei_config_t cfg;
    args_t a;
    char err[512];
    static const char *const argl[] = {
        "prog",
        "--mce-compute=none",
        "--mce-compute=measured", /* the last one wins */
        "--mce-placement=cyclic",
        "--mce-placement=block",
        "--mce-privatize=off",
        "--mce-stack-size=256K",
        "--mce-seed=0",
        "--mce-trace=out.json",
        "--mce-verbose",
        "--mce-help",
        "--mce-machine-path=/a:/b",
        "--mce-machine=m1",
        "--mce-machine=m2",
        "--mce-nodes=1073741824", /* 2^30, the largest accepted */
        NULL};
    static const char *const want[] = {"prog", NULL};
    assert_int_equal(parse(&cfg, &a, argl, NULL, err, sizeof(err)), MCE_OK);
    expect_argv(&a, want);
    assert_int_equal(cfg.compute, MCE_COMPUTE_MEASURED);
    assert_int_equal(cfg.placement, MCEI_PLACE_BLOCK);
    assert_int_equal(cfg.privatize, MCEI_PRIV_OFF);
    assert_int_equal(cfg.stack_size, 256 * 1024);
    assert_int_equal(cfg.seed, 0);
    assert_string_equal(cfg.trace, "out.json");
    assert_int_equal(cfg.verbose, 1);
    assert_int_equal(cfg.help, 1);
    assert_string_equal(cfg.machine_path, "/a:/b");
    assert_string_equal(cfg.machine, "m2");
    assert_int_equal(cfg.nodes, 1ULL << 30);
    assert_int_equal(cfg.summary, 0);
    mcei_config_free(&cfg);

    static const char *const argl2[] = {"prog",
                                        "--mce-compute=none",
                                        "--mce-privatize=on",
                                        "--mce-stack-size=4G",
                                        "--mce-seed=18446744073709551615",
                                        NULL};
    assert_int_equal(parse(&cfg, &a, argl2, NULL, err, sizeof(err)), MCE_OK);
    assert_int_equal(cfg.compute, MCE_COMPUTE_NONE);
    assert_int_equal(cfg.privatize, MCEI_PRIV_ON);
    assert_int_equal(cfg.stack_size, 4ULL << 30);
    assert_int_equal(cfg.seed, UINT64_MAX);
    mcei_config_free(&cfg);

    static const char *const argl3[] = {"prog", "--mce-stack-size=16K",
                                        "--mce-compute=explicit", NULL};
    assert_int_equal(parse(&cfg, &a, argl3, NULL, err, sizeof(err)), MCE_OK);
    assert_int_equal(cfg.stack_size, 16384);
    assert_int_equal(cfg.compute, MCE_COMPUTE_EXPLICIT);
    mcei_config_free(&cfg);
}

static void test_config_double_dash(void **state)
{
    (void)state;
    mcei_config_t cfg;
    args_t a;
    char err[512];
    static const char *const argl[] = {
        "prog",        "--mce-nodes=2",       "x", "--", "--mce-nodes=5",
        "--mce-bogus", "--mce-summary=maybe", "y", "--", NULL};
    /* Nothing after "--" is parsed; the program gets it all, in order.
     * The "--" itself is passed on too (current behaviour). */
    static const char *const want[] = {"prog",        "x",
                                       "--",          "--mce-nodes=5",
                                       "--mce-bogus", "--mce-summary=maybe",
                                       "y",           "--",
                                       NULL};
    assert_int_equal(parse(&cfg, &a, argl, NULL, err, sizeof(err)), MCE_OK);
    expect_argv(&a, want);
    assert_int_equal(cfg.nodes, 2);
    assert_int_equal(cfg.summary, 0);
    mcei_config_free(&cfg);

    /* "--" first: not even a valid option after it is applied */
    static const char *const argl2[] = {"prog", "--", "--mce-nodes=5", NULL};
    assert_int_equal(parse(&cfg, &a, argl2, NULL, err, sizeof(err)), MCE_OK);
    expect_argv(&a, argl2);
    assert_int_equal(cfg.nodes, 0);
    mcei_config_free(&cfg);
}

static void test_config_two_word(void **state)
{
    (void)state;
    mcei_config_t cfg;
    args_t a;
    char err[512];
    static const char *const argl[] = {"prog", "--mce-nodes", "64", "foo",
                                       NULL};
    static const char *const want[] = {"prog", "foo", NULL};
    assert_int_equal(parse(&cfg, &a, argl, NULL, err, sizeof(err)), MCE_OK);
    expect_argv(&a, want);
    assert_int_equal(cfg.nodes, 64);
    mcei_config_free(&cfg);

    static const char *const argl2[] = {
        "prog",      "--mce-machine", "box",
        "--mce-set", "k=v",           "--mce-stack-size",
        "2M",        "bar",           "--mce-compute",
        "none",      "--mce-seed",    "77",
        NULL};
    static const char *const want2[] = {"prog", "bar", NULL};
    assert_int_equal(parse(&cfg, &a, argl2, NULL, err, sizeof(err)), MCE_OK);
    expect_argv(&a, want2);
    assert_string_equal(cfg.machine, "box");
    expect_override(&cfg, "k", "v");
    assert_int_equal(cfg.stack_size, 2ULL << 20);
    assert_int_equal(cfg.compute, MCE_COMPUTE_NONE);
    assert_int_equal(cfg.seed, 77);
    mcei_config_free(&cfg);

    /* flags never take the next word: "yes" stays a program argument */
    static const char *const argl3[] = {"prog", "--mce-summary", "yes", NULL};
    static const char *const want3[] = {"prog", "yes", NULL};
    assert_int_equal(parse(&cfg, &a, argl3, NULL, err, sizeof(err)), MCE_OK);
    expect_argv(&a, want3);
    assert_int_equal(cfg.summary, 1);
    mcei_config_free(&cfg);

    /* the next word is not taken when it is itself an option */
    static const char *const argl4[] = {"prog", "--mce-nodes", "--mce-seed=3",
                                        NULL};
    assert_int_equal(parse(&cfg, &a, argl4, NULL, err, sizeof(err)),
                     MCE_ERR_CONFIG);
    assert_non_null(strstr(err, "--mce-nodes"));
    assert_non_null(strstr(err, "needs a value"));
    mcei_config_free(&cfg);
}

static void test_config_flag_values(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int value;
    } cases[] = {{"1", 1}, {"yes", 1}, {"true", 1},  {"on", 1},
                 {"0", 0}, {"no", 0},  {"false", 0}, {"off", 0}};
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(cases); i++) {
        mcei_config_t cfg;
        args_t a;
        char err[512], opt[64], envv[64];
        snprintf(opt, sizeof(opt), "--mce-verbose=%s", cases[i].text);
        const char *argl[] = {"prog", "--mce-summary", opt, NULL};
        assert_int_equal(parse(&cfg, &a, argl, NULL, err, sizeof(err)), MCE_OK);
        assert_int_equal(cfg.verbose, cases[i].value);
        assert_int_equal(cfg.summary, 1);
        mcei_config_free(&cfg);

        /* the same words from the environment */
        snprintf(envv, sizeof(envv), "MCE_SUMMARY=%s", cases[i].text);
        char *env[] = {envv, NULL};
        const char *argl2[] = {"prog", NULL};
        assert_int_equal(parse(&cfg, &a, argl2, env, err, sizeof(err)), MCE_OK);
        assert_int_equal(cfg.summary, cases[i].value);
        mcei_config_free(&cfg);
    }
}

static void test_config_environment(void **state)
{
    (void)state;
    mcei_config_t cfg;
    args_t a;
    char err[512];
    char *env[] = {"HOME=/root",
                   "MCE_NODES=12",
                   "MCE_STACK_SIZE=64K",
                   "MCE_MACHINE_PATH=/x:/y",
                   "MCE_COMPUTE=none",
                   "MCE_PLACEMENT=cyclic",
                   "MCE_SET=latency=2us",
                   "MCE_TRACE=t.json",
                   "MCE_SEED=42",
                   "NOT_MCE_SEED=43",
                   NULL};
    static const char *const argl[] = {"prog", "arg", NULL};
    assert_int_equal(parse(&cfg, &a, argl, env, err, sizeof(err)), MCE_OK);
    expect_argv(&a, argl);
    assert_int_equal(cfg.nodes, 12);
    assert_int_equal(cfg.stack_size, 64 * 1024);
    assert_string_equal(cfg.machine_path, "/x:/y");
    assert_int_equal(cfg.compute, MCE_COMPUTE_NONE);
    assert_int_equal(cfg.placement, MCEI_PLACE_CYCLIC);
    expect_override(&cfg, "latency", "2us");
    assert_string_equal(cfg.trace, "t.json");
    assert_int_equal(cfg.seed, 42);
    assert_non_null(
        strstr(mcei_kv_find(&cfg.overrides, "latency")->origin, "MCE_SET"));
    mcei_config_free(&cfg);
}

static void test_config_precedence(void **state)
{
    (void)state;
    mcei_config_t cfg;
    args_t a;
    char err[512], opt[256], envc[256];
    char *file1 = tmp_file("# run settings\n"
                           "nodes = 8\n"
                           "seed = 5\n"
                           "\n"
                           "machine = filebox   # trailing comment\n"
                           "compute = none\n"
                           "summary = yes\n"
                           "stack-size = 128K\n"
                           "set = latency=7us\n");
    char *file2 = tmp_file("nodes = 3\n");

    /* option > environment > file */
    snprintf(opt, sizeof(opt), "--mce-config=%s", file1);
    {
        char *env[] = {"MCE_NODES=16", "MCE_SEED=6", "MCE_SUMMARY=no",
                       "MCE_SET=latency=8us", NULL};
        const char *argl[] = {
            "prog", opt, "--mce-nodes=32", "--mce-set=per_byte=2ns",
            "arg",  NULL};
        const char *want[] = {"prog", "arg", NULL};
        assert_int_equal(parse(&cfg, &a, argl, env, err, sizeof(err)), MCE_OK);
        expect_argv(&a, want);
        assert_int_equal(cfg.nodes, 32);                 /* option */
        assert_int_equal(cfg.seed, 6);                   /* environment */
        assert_int_equal(cfg.summary, 0);                /* environment */
        assert_string_equal(cfg.machine, "filebox");     /* file */
        assert_int_equal(cfg.compute, MCE_COMPUTE_NONE); /* file */
        assert_int_equal(cfg.stack_size, 128 * 1024);    /* file */
        expect_override(&cfg, "latency", "8us");         /* environment */
        expect_override(&cfg, "per_byte", "2ns");        /* option */
        assert_string_equal(cfg.config_file, file1);
        mcei_config_free(&cfg);
    }
    /* the file alone, named by MCE_CONFIG */
    snprintf(envc, sizeof(envc), "MCE_CONFIG=%s", file1);
    {
        char *env[] = {envc, NULL};
        const char *argl[] = {"prog", NULL};
        assert_int_equal(parse(&cfg, &a, argl, env, err, sizeof(err)), MCE_OK);
        assert_int_equal(cfg.nodes, 8);
        assert_int_equal(cfg.seed, 5);
        assert_int_equal(cfg.summary, 1);
        assert_string_equal(cfg.machine, "filebox");
        expect_override(&cfg, "latency", "7us");
        mcei_config_free(&cfg);
    }
    /* environment over the MCE_CONFIG file */
    {
        char *env[] = {"MCE_NODES=16", envc, NULL};
        const char *argl[] = {"prog", NULL};
        assert_int_equal(parse(&cfg, &a, argl, env, err, sizeof(err)), MCE_OK);
        assert_int_equal(cfg.nodes, 16);
        assert_int_equal(cfg.seed, 5);
        mcei_config_free(&cfg);
    }
    /* --mce-config wins over MCE_CONFIG: file1 is not read at all */
    snprintf(opt, sizeof(opt), "--mce-config=%s", file2);
    {
        char *env[] = {envc, NULL};
        const char *argl[] = {"prog", opt, NULL};
        const char *want[] = {"prog", NULL};
        assert_int_equal(parse(&cfg, &a, argl, env, err, sizeof(err)), MCE_OK);
        expect_argv(&a, want);
        assert_int_equal(cfg.nodes, 3);
        assert_int_equal(cfg.seed, 1);
        assert_null(cfg.machine);
        assert_int_equal(cfg.overrides.count, 0);
        mcei_config_free(&cfg);
    }
}

typedef struct err_case {
    const char *argv[6]; /* after the program name, NULL-terminated */
    const char *env[3];
    const char *want1, *want2; /* substrings of the message */
} err_case_t;

static void check_error(const char *const *argrest, char **envp,
                        const char *want1, const char *want2)
{
    mcei_config_t cfg;
    args_t a;
    char err[512];
    const char *argl[MAX_ARGS + 1] = {"prog"};
    int n = 1;
    for (; argrest[n - 1] != NULL; n++)
        argl[n] = argrest[n - 1];
    argl[n] = NULL;
    int rc = parse(&cfg, &a, argl, envp, err, sizeof(err));
    if (rc != MCE_ERR_CONFIG || (want1 && !strstr(err, want1)) ||
        (want2 && !strstr(err, want2)))
        print_error("args '%s' env '%s': rc %d, message '%s'\n",
                    argrest[0] ? argrest[0] : "",
                    envp && envp[0] ? envp[0] : "", rc, err);
    assert_int_equal(rc, MCE_ERR_CONFIG);
    assert_true(strlen(err) > 0);
    if (want1)
        assert_non_null(strstr(err, want1));
    if (want2)
        assert_non_null(strstr(err, want2));
    mcei_config_free(&cfg);
}

static void test_config_errors(void **state)
{
    (void)state;
    static const err_case_t cases[] = {
        {{"--mce-bogus=1"}, {NULL}, "unknown option", "--mce-bogus"},
        {{"--mce-nodez"}, {NULL}, "unknown option", "--mce-nodez"},
        {{"--mce-"}, {NULL}, "unknown option", "--mce-"},
        {{"--mce-nodes"}, {NULL}, "option --mce-nodes", "needs a value"},
        {{"--mce-machine"}, {NULL}, "option --mce-machine", "needs a value"},
        {{"--mce-set"}, {NULL}, "option --mce-set", "needs a value"},
        {{"--mce-nodes=0"}, {NULL}, "option --mce-nodes", "'0'"},
        {{"--mce-nodes=abc"}, {NULL}, "option --mce-nodes", "'abc'"},
        {{"--mce-nodes=-3"}, {NULL}, "option --mce-nodes", "'-3'"},
        {{"--mce-nodes="}, {NULL}, "option --mce-nodes", "''"},
        {{"--mce-nodes=4x"}, {NULL}, "option --mce-nodes", "'4x'"},
        {{"--mce-nodes=99999999999999999999999"},
         {NULL},
         "option --mce-nodes",
         "'99999999999999999999999'"},
        {{"--mce-nodes=1073741825"},
         {NULL},
         "option --mce-nodes",
         "'1073741825'"},
        {{"--mce-nodes", "0"}, {NULL}, "option --mce-nodes", "'0'"},
        {{"--mce-compute=fast"}, {NULL}, "option --mce-compute", "'fast'"},
        {{"--mce-compute=Explicit"},
         {NULL},
         "option --mce-compute",
         "'Explicit'"},
        {{"--mce-placement=random"},
         {NULL},
         "option --mce-placement",
         "'random'"},
        {{"--mce-privatize=maybe"},
         {NULL},
         "option --mce-privatize",
         "'maybe'"},
        {{"--mce-summary=maybe"}, {NULL}, "option --mce-summary", "'maybe'"},
        {{"--mce-summary="}, {NULL}, "option --mce-summary", NULL},
        {{"--mce-help=2"}, {NULL}, "option --mce-help", "'2'"},
        {{"--mce-stack-size=1"}, {NULL}, "option --mce-stack-size", "'1'"},
        {{"--mce-stack-size=12Q"}, {NULL}, "option --mce-stack-size", "'12Q'"},
        {{"--mce-stack-size=16383"},
         {NULL},
         "option --mce-stack-size",
         "'16383'"},
        {{"--mce-stack-size=5G"}, {NULL}, "option --mce-stack-size", "'5G'"},
        {{"--mce-seed=-1"}, {NULL}, "option --mce-seed", "'-1'"},
        {{"--mce-seed=1.5"}, {NULL}, "option --mce-seed", "'1.5'"},
        {{"--mce-set=latency"}, {NULL}, "option --mce-set", "'latency'"},
        {{"--mce-set==5"}, {NULL}, "option --mce-set", "'=5'"},
        {{"--mce-set=latency="}, {NULL}, "option --mce-set", "'latency='"},
        {{"--mce-set=bad key=1"},
         {NULL},
         "option --mce-set",
         "invalid key 'bad key'"},
        {{"--mce-machine="}, {NULL}, "option --mce-machine", "empty"},
        {{"--mce-trace="}, {NULL}, "option --mce-trace", "empty"},
        {{"--mce-config="}, {NULL}, "--mce-config", "empty"},
        /* a good option before a bad one does not hide the error */
        {{"--mce-nodes=4", "x", "--mce-compute=slow"},
         {NULL},
         "option --mce-compute",
         "'slow'"},
        /* environment */
        {{NULL},
         {"MCE_BOGUS=1"},
         "environment variable MCE_BOGUS",
         "not an mcemu setting"},
        {{NULL}, {"MCE_nodes=4"}, "environment variable MCE_nodes", NULL},
        {{NULL}, {"MCE_=4"}, "environment variable MCE_", NULL},
        {{NULL},
         {"MCE_NODES=many"},
         "environment variable MCE_NODES",
         "'many'"},
        {{NULL}, {"MCE_NODES=0"}, "environment variable MCE_NODES", "'0'"},
        {{NULL},
         {"MCE_COMPUTE=fast"},
         "environment variable MCE_COMPUTE",
         "'fast'"},
        {{NULL},
         {"MCE_SUMMARY=maybe"},
         "environment variable MCE_SUMMARY",
         "'maybe'"},
        {{NULL},
         {"MCE_STACK_SIZE=1"},
         "environment variable MCE_STACK_SIZE",
         "'1'"},
        {{NULL},
         {"MCE_SET=novalue"},
         "environment variable MCE_SET",
         "'novalue'"},
        /* a bad environment value fails even when an option would override
         * it */
        {{"--mce-nodes=2"},
         {"MCE_NODES=many"},
         "environment variable MCE_NODES",
         "'many'"},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(cases); i++)
        check_error(cases[i].argv, (char **)cases[i].env, cases[i].want1,
                    cases[i].want2);
}

static void test_config_file_errors(void **state)
{
    (void)state;
    char opt[512], missing[256];
    const char *args[2] = {opt, NULL};

    /* missing file: the message names it */
    snprintf(missing, sizeof(missing), "%s/no-such-config", tmp_dir);
    snprintf(opt, sizeof(opt), "--mce-config=%s", missing);
    check_error(args, NULL, "config file", missing);
    {
        char envc[300];
        snprintf(envc, sizeof(envc), "MCE_CONFIG=%s", missing);
        char *env[] = {envc, NULL};
        const char *none[] = {NULL};
        check_error(none, env, "config file", missing);
    }

    static const struct {
        const char *text;
        const char *want1, *want2;
    } files[] = {
        /* bad line (no '='), on line 2 */
        {"nodes = 4\nnodes 4\n", ":2", "expected 'key = value'"},
        /* unknown key */
        {"# c\ncolour = red\n", "'colour'", "not an mcemu option"},
        /* bad value for a known key */
        {"nodes = zero\n", "'nodes'", "'zero'"},
        {"compute = fast\n", "'compute'", "'fast'"},
        {"summary = perhaps\n", "'summary'", "'perhaps'"},
        /* the config file cannot name another one */
        {"config = /etc/other\n", "'config'", "not an mcemu option"},
        /* syntax errors caught by the key = value reader */
        {"bad key = 1\n", "invalid key", NULL},
        {"nodes =\n", "'nodes'", "no value"},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(files); i++) {
        char *path = tmp_file(files[i].text);
        snprintf(opt, sizeof(opt), "--mce-config=%s", path);
        check_error(args, NULL, files[i].want1, files[i].want2);
        check_error(args, NULL, path, NULL); /* names the file too */
    }
}

/* ---- key = value files ------------------------------------------------- */

static void test_kv_load_good(void **state)
{
    (void)state;
    mcei_kvlist_t kv = {0};
    char err[512] = "", origin[512];
    char *path = tmp_file("# header comment\n"
                          "\n"
                          "alpha = 1\n"
                          "  beta.key-x_y   =   two words   # trailing\n"
                          "gamma=3\n"
                          "alpha = 4\n"
                          "\t# indented comment\n"
                          "hash = a#b\n"
                          "eq = x=y\n"
                          "last = no newline");
    assert_int_equal(mcei_kv_load(&kv, path, err, sizeof(err)), MCE_OK);
    assert_int_equal(kv.count, 6);
    mcei_kv_t *e = mcei_kv_find(&kv, "alpha");
    assert_non_null(e);
    assert_string_equal(e->value, "4"); /* later duplicates override */
    snprintf(origin, sizeof(origin), "%s:6", path);
    assert_string_equal(e->origin, origin);
    assert_int_equal(e->used, 0);
    e = mcei_kv_find(&kv, "beta.key-x_y");
    assert_non_null(e);
    assert_string_equal(e->value, "two words");
    snprintf(origin, sizeof(origin), "%s:4", path);
    assert_string_equal(e->origin, origin);
    assert_string_equal(mcei_kv_find(&kv, "gamma")->value, "3");
    assert_string_equal(mcei_kv_find(&kv, "hash")->value, "a");
    assert_string_equal(mcei_kv_find(&kv, "eq")->value, "x=y");
    assert_string_equal(mcei_kv_find(&kv, "last")->value, "no newline");
    assert_null(mcei_kv_find(&kv, "delta"));
    assert_null(mcei_kv_find(&kv, "Alpha"));

    /* a second file into the same list overrides and extends */
    char *path2 = tmp_file("gamma = 30\ndelta = 4\n");
    assert_int_equal(mcei_kv_load(&kv, path2, err, sizeof(err)), MCE_OK);
    assert_int_equal(kv.count, 7);
    assert_string_equal(mcei_kv_find(&kv, "gamma")->value, "30");
    assert_string_equal(mcei_kv_find(&kv, "delta")->value, "4");
    assert_string_equal(mcei_kv_find(&kv, "alpha")->value, "4");
    mcei_kv_free(&kv);
    assert_int_equal(kv.count, 0);
    assert_null(kv.items);

    /* an empty file and a comments-only file give an empty list */
    path = tmp_file("");
    assert_int_equal(mcei_kv_load(&kv, path, err, sizeof(err)), MCE_OK);
    assert_int_equal(kv.count, 0);
    path = tmp_file("# nothing\n\n   \n");
    assert_int_equal(mcei_kv_load(&kv, path, err, sizeof(err)), MCE_OK);
    assert_int_equal(kv.count, 0);
    mcei_kv_free(&kv);
}

static void test_kv_load_bad(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *want1, *want2;
    } cases[] = {
        {"a = 1\nnovalue\n", ":2:", "expected 'key = value'"},
        {"bad key = 1\n", ":1:", "invalid key 'bad key'"},
        {"k! = 1\n", ":1:", "invalid key 'k!'"},
        {"= v\n", ":1:", "invalid key ''"},
        {"\n\nk =   # only a comment\n", ":3:", "key 'k' has no value"},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(cases); i++) {
        mcei_kvlist_t kv = {0};
        char err[512] = "";
        char *path = tmp_file(cases[i].text);
        assert_int_equal(mcei_kv_load(&kv, path, err, sizeof(err)),
                         MCE_ERR_CONFIG);
        assert_non_null(strstr(err, path));
        assert_non_null(strstr(err, cases[i].want1));
        assert_non_null(strstr(err, cases[i].want2));
        mcei_kv_free(&kv);
    }

    /* an over-long line is refused, not split */
    {
        size_t n = 5000;
        char *text = malloc(n + 16);
        mcei_kvlist_t kv = {0};
        char err[512] = "";
        assert_non_null(text);
        strcpy(text, "k = ");
        memset(text + 4, 'v', n);
        strcpy(text + 4 + n, "\n");
        char *path = tmp_file(text);
        free(text);
        assert_int_equal(mcei_kv_load(&kv, path, err, sizeof(err)),
                         MCE_ERR_CONFIG);
        assert_non_null(strstr(err, "too long"));
        assert_null(mcei_kv_find(&kv, "k"));
        mcei_kv_free(&kv);
    }
    /* a missing file is an I/O error naming it */
    {
        mcei_kvlist_t kv = {0};
        char err[512] = "", path[256];
        snprintf(path, sizeof(path), "%s/absent.conf", tmp_dir);
        assert_int_equal(mcei_kv_load(&kv, path, err, sizeof(err)), MCE_ERR_IO);
        assert_non_null(strstr(err, path));
        assert_int_equal(kv.count, 0);
    }
}

static void test_kv_set(void **state)
{
    (void)state;
    mcei_kvlist_t kv = {0};
    char key[32], val[32];
    assert_int_equal(mcei_kv_set(&kv, "a", "1", "here"), MCE_OK);
    assert_int_equal(mcei_kv_set(&kv, "b", "2", NULL), MCE_OK);
    assert_int_equal(kv.count, 2);
    assert_string_equal(mcei_kv_find(&kv, "b")->origin, "");
    mcei_kv_find(&kv, "a")->used = 1;
    assert_int_equal(mcei_kv_set(&kv, "a", "one", "there"), MCE_OK);
    assert_int_equal(kv.count, 2);
    assert_string_equal(mcei_kv_find(&kv, "a")->value, "one");
    assert_string_equal(mcei_kv_find(&kv, "a")->origin, "there");
    /* growth */
    for (int i = 0; i < 100; i++) {
        snprintf(key, sizeof(key), "key%d", i);
        snprintf(val, sizeof(val), "%d", i * 7);
        assert_int_equal(mcei_kv_set(&kv, key, val, "loop"), MCE_OK);
    }
    assert_int_equal(kv.count, 102);
    for (int i = 0; i < 100; i++) {
        snprintf(key, sizeof(key), "key%d", i);
        snprintf(val, sizeof(val), "%d", i * 7);
        assert_string_equal(mcei_kv_find(&kv, key)->value, val);
    }
    assert_string_equal(mcei_kv_find(&kv, "a")->value, "one");
    mcei_kv_free(&kv);
}

/* ---- machine descriptions ---------------------------------------------- */

static char search_path[512];

static void make_machines(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    dir_file("base.conf", "# a base machine\n"
                          "network = ideal\n"
                          "latency = 5 us\n"
                          "per_byte = 10 ns\n"
                          "bare = 3\n"
                          "scale = 1.25\n"
                          "count = 7\n");
    dir_file("child.conf", "inherit = base\n"
                           "name = child-box\n"
                           "latency = 2us\n"
                           "extra = 9\n");
    dir_file("grand.conf", "name = grand\n"
                           "inherit = child\n"
                           "per_byte = 1 ps\n");
    dir_file("loopa.conf", "inherit = loopb\nx = 1\n");
    dir_file("loopb.conf", "inherit = loopa\n");
    dir_file("self.conf", "inherit = self\n");
    dir_file("orphan.conf", "inherit = does-not-exist\n");
    dir_file("typo.conf", "network = ideal\n"
                          "latency = 1 us\n"
                          "latncy = 2 us\n");
    dir_file("broken.conf", "latency = 1 us\nlatency 5 us\n");
    dir_file("badval.conf",
             "latency = fast\nper_byte = -1\nspeed = 1.0000001\n");
    /* a colon list: a missing directory, an empty entry, then ours */
    snprintf(search_path, sizeof(search_path), "%s/none::%s", tmp_dir, tmp_dir);
}

static void expect_time(mcei_machine_t *m, const char *key, mce_time_t want)
{
    char err[512] = "";
    mce_time_t t = 0;
    int rc = mcei_machine_time(m, key, 1, 0, &t, err, sizeof(err));
    if (rc != MCE_OK)
        print_error("%s: %s\n", key, err);
    assert_int_equal(rc, MCE_OK);
    assert_int_equal(t, want);
}

static void test_machine_by_name(void **state)
{
    (void)state;
    mcei_machine_t m = {0};
    char err[512] = "", path[512];
    uint64_t u = 0;
    make_machines();
    assert_int_equal(
        mcei_machine_load(&m, "base", search_path, NULL, err, sizeof(err)),
        MCE_OK);
    assert_string_equal(m.name, "base"); /* no name key: the file's name */
    snprintf(path, sizeof(path), "%s/base.conf", tmp_dir);
    assert_string_equal(m.path, path);
    assert_string_equal(mcei_machine_str(&m, "network", NULL), "ideal");
    expect_time(&m, "latency", 5 * 1000 * 1000);
    expect_time(&m, "per_byte", 10 * 1000);
    expect_time(&m, "bare", 3 * 1000 * 1000); /* bare numbers are us */
    assert_int_equal(
        mcei_machine_micro(&m, "scale", 1, 0, &u, err, sizeof(err)), MCE_OK);
    assert_int_equal(u, 1250000);
    assert_int_equal(mcei_machine_u64(&m, "count", 1, 0, &u, err, sizeof(err)),
                     MCE_OK);
    assert_int_equal(u, 7);
    /* every key read: nothing unused */
    assert_int_equal(mcei_machine_check_unused(&m, err, sizeof(err)), MCE_OK);
    mcei_machine_free(&m);
    assert_null(m.name);
    assert_null(m.path);
    assert_int_equal(m.kv.count, 0);
}

static void test_machine_inherit(void **state)
{
    (void)state;
    mcei_machine_t m = {0};
    char err[512] = "", path[512], origin[512];
    uint64_t u = 0;
    make_machines();
    assert_int_equal(
        mcei_machine_load(&m, "child", search_path, NULL, err, sizeof(err)),
        MCE_OK);
    assert_string_equal(m.name, "child-box");
    snprintf(path, sizeof(path), "%s/child.conf", tmp_dir);
    assert_string_equal(m.path, path);
    expect_time(&m, "latency", 2 * 1000 * 1000); /* child overrides */
    expect_time(&m, "per_byte", 10 * 1000);      /* inherited */
    assert_int_equal(mcei_machine_u64(&m, "extra", 1, 0, &u, err, sizeof(err)),
                     MCE_OK);
    assert_int_equal(u, 9);
    assert_int_equal(mcei_machine_u64(&m, "count", 1, 0, &u, err, sizeof(err)),
                     MCE_OK);
    assert_int_equal(u, 7);
    assert_null(mcei_kv_find(&m.kv, "inherit"));
    /* origins tell which file each key came from */
    snprintf(origin, sizeof(origin), "%s/child.conf:3", tmp_dir);
    assert_string_equal(mcei_kv_find(&m.kv, "latency")->origin, origin);
    snprintf(origin, sizeof(origin), "%s/base.conf:4", tmp_dir);
    assert_string_equal(mcei_kv_find(&m.kv, "per_byte")->origin, origin);
    mcei_machine_free(&m);

    /* two levels */
    assert_int_equal(
        mcei_machine_load(&m, "grand", search_path, NULL, err, sizeof(err)),
        MCE_OK);
    assert_string_equal(m.name, "grand");
    expect_time(&m, "per_byte", 1);
    expect_time(&m, "latency", 2 * 1000 * 1000);
    assert_int_equal(mcei_machine_u64(&m, "extra", 1, 0, &u, err, sizeof(err)),
                     MCE_OK);
    assert_int_equal(u, 9);
    mcei_machine_free(&m);

    /* by path; the parent is still found by name in the search path */
    assert_int_equal(
        mcei_machine_load(&m, path, search_path, NULL, err, sizeof(err)),
        MCE_OK);
    assert_string_equal(m.path, path);
    assert_string_equal(m.name, "child-box");
    expect_time(&m, "latency", 2 * 1000 * 1000);
    expect_time(&m, "per_byte", 10 * 1000);
    mcei_machine_free(&m);

    /* by path without a search path: the parent cannot be found */
    assert_int_equal(mcei_machine_load(&m, path, NULL, NULL, err, sizeof(err)),
                     MCE_ERR_MACHINE);
    assert_non_null(strstr(err, "'base'"));
    assert_null(m.name);
}

static void test_machine_by_path(void **state)
{
    (void)state;
    mcei_machine_t m = {0};
    char err[512] = "", path[512];
    make_machines();
    /* a path: no search needed, name from the file's base name */
    snprintf(path, sizeof(path), "%s/typo.conf", tmp_dir);
    assert_int_equal(mcei_machine_load(&m, path, NULL, NULL, err, sizeof(err)),
                     MCE_OK);
    assert_string_equal(m.name, "typo");
    assert_string_equal(m.path, path);
    mcei_machine_free(&m);

    /* the shipped ideal machine, by path in the source tree */
    assert_int_equal(mcei_machine_load(&m,
                                       MCE_SRCDIR "/share/machines/ideal.conf",
                                       NULL, NULL, err, sizeof(err)),
                     MCE_OK);
    assert_string_equal(m.name, "ideal");
    assert_string_equal(mcei_machine_str(&m, "network", NULL), "ideal");
    expect_time(&m, "latency", 5 * 1000 * 1000);
    expect_time(&m, "per_byte", 10 * 1000);
    mcei_machine_free(&m);

    /* and by name, found in the machine directories */
    assert_int_equal(
        mcei_machine_load(&m, "ideal", search_path, NULL, err, sizeof(err)),
        MCE_OK);
    assert_string_equal(m.name, "ideal");
    size_t n = strlen(m.path);
    assert_true(n >= 11);
    assert_string_equal(m.path + n - 11, "/ideal.conf");
    mcei_machine_free(&m);

    /* missing file by path */
    snprintf(path, sizeof(path), "%s/nope.conf", tmp_dir);
    assert_int_equal(mcei_machine_load(&m, path, NULL, NULL, err, sizeof(err)),
                     MCE_ERR_MACHINE);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "not found"));
    assert_null(m.name);
}

static void test_machine_errors(void **state)
{
    (void)state;
    mcei_machine_t m = {0};
    char err[512] = "", where[512];
    make_machines();

    /* unknown name: the message says where it looked */
    assert_int_equal(
        mcei_machine_load(&m, "cray-9", search_path, NULL, err, sizeof(err)),
        MCE_ERR_MACHINE);
    assert_non_null(strstr(err, "unknown machine 'cray-9'"));
    snprintf(where, sizeof(where), "%s/cray-9.conf", tmp_dir);
    assert_non_null(strstr(err, where));
    assert_null(m.name);

    assert_int_equal(
        mcei_machine_load(&m, "bad name!", search_path, NULL, err, sizeof(err)),
        MCE_ERR_MACHINE);
    assert_non_null(strstr(err, "bad name!"));

    /* inherit loops, direct and through another file */
    static const char *const loops[] = {"loopa", "loopb", "self"};
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(loops); i++) {
        err[0] = '\0';
        assert_int_equal(mcei_machine_load(&m, loops[i], search_path, NULL, err,
                                           sizeof(err)),
                         MCE_ERR_MACHINE);
        assert_non_null(strstr(err, "inherit"));
        assert_null(m.name);
    }

    /* inherit of a machine that does not exist */
    assert_int_equal(
        mcei_machine_load(&m, "orphan", search_path, NULL, err, sizeof(err)),
        MCE_ERR_MACHINE);
    assert_non_null(strstr(err, "does-not-exist"));

    /* syntax error in the file */
    assert_int_equal(
        mcei_machine_load(&m, "broken", search_path, NULL, err, sizeof(err)),
        MCE_ERR_MACHINE);
    snprintf(where, sizeof(where), "%s/broken.conf:2", tmp_dir);
    assert_non_null(strstr(err, where));
    assert_null(m.name);
}

static void test_machine_overrides(void **state)
{
    (void)state;
    mcei_machine_t m = {0};
    mcei_kvlist_t ov = {0};
    char err[512] = "";
    make_machines();
    assert_int_equal(mcei_kv_set(&ov, "latency", "9 us", "option --mce-set"),
                     MCE_OK);
    assert_int_equal(mcei_kv_set(&ov, "newkey", "11", "option --mce-set"),
                     MCE_OK);
    assert_int_equal(mcei_kv_set(&ov, "name", "renamed", "option --mce-set"),
                     MCE_OK);
    assert_int_equal(
        mcei_machine_load(&m, "child", search_path, &ov, err, sizeof(err)),
        MCE_OK);
    expect_time(&m, "latency", 9 * 1000 * 1000);
    expect_time(&m, "per_byte", 10 * 1000);
    assert_string_equal(mcei_kv_find(&m.kv, "latency")->origin,
                        "option --mce-set");
    assert_string_equal(mcei_machine_str(&m, "newkey", NULL), "11");
    assert_string_equal(m.name, "renamed");
    mcei_machine_free(&m);
    /* the override list itself is not consumed */
    assert_int_equal(ov.count, 3);
    mcei_kv_free(&ov);
}

static void test_machine_getters(void **state)
{
    (void)state;
    mcei_machine_t m = {0};
    char err[512] = "", where[512];
    mce_time_t t;
    uint64_t u;
    make_machines();
    assert_int_equal(
        mcei_machine_load(&m, "base", search_path, NULL, err, sizeof(err)),
        MCE_OK);

    /* missing keys: the default when optional, a named error when required */
    t = 123;
    assert_int_equal(mcei_machine_time(&m, "nope", 0, 77, &t, err, sizeof(err)),
                     MCE_OK);
    assert_int_equal(t, 77);
    t = 123;
    err[0] = '\0';
    assert_int_equal(mcei_machine_time(&m, "nope", 1, 77, &t, err, sizeof(err)),
                     MCE_ERR_MACHINE);
    assert_int_equal(t, 123);
    assert_non_null(strstr(err, "required key 'nope' missing"));
    assert_non_null(strstr(err, "'base'"));
    u = 5;
    assert_int_equal(mcei_machine_u64(&m, "nope", 1, 0, &u, err, sizeof(err)),
                     MCE_ERR_MACHINE);
    assert_int_equal(u, 5);
    assert_int_equal(
        mcei_machine_micro(&m, "nope", 0, 42, &u, err, sizeof(err)), MCE_OK);
    assert_int_equal(u, 42);
    assert_string_equal(mcei_machine_str(&m, "nope", "dflt"), "dflt");
    assert_null(mcei_machine_str(&m, "nope", NULL));

    /* a time key read as an integer is not an integer */
    assert_int_equal(
        mcei_machine_u64(&m, "latency", 1, 0, &u, err, sizeof(err)),
        MCE_ERR_MACHINE);
    assert_non_null(strstr(err, "'latency'"));
    assert_non_null(strstr(err, "'5 us'"));
    mcei_machine_free(&m);

    /* malformed values: the message names the key, value and line */
    assert_int_equal(
        mcei_machine_load(&m, "badval", search_path, NULL, err, sizeof(err)),
        MCE_OK);
    t = 123;
    assert_int_equal(
        mcei_machine_time(&m, "latency", 1, 0, &t, err, sizeof(err)),
        MCE_ERR_MACHINE);
    assert_int_equal(t, 123);
    snprintf(where, sizeof(where), "%s/badval.conf:1", tmp_dir);
    assert_non_null(strstr(err, where));
    assert_non_null(strstr(err, "key 'latency': 'fast' is not a time"));
    assert_int_equal(
        mcei_machine_time(&m, "per_byte", 0, 0, &t, err, sizeof(err)),
        MCE_ERR_MACHINE);
    assert_non_null(strstr(err, "'per_byte'"));
    assert_int_equal(
        mcei_machine_micro(&m, "speed", 0, 0, &u, err, sizeof(err)),
        MCE_ERR_MACHINE);
    assert_non_null(strstr(err, "'speed'"));
    mcei_machine_free(&m);
}

static void test_machine_check_unused(void **state)
{
    (void)state;
    mcei_machine_t m = {0};
    char err[512] = "", where[512];
    mce_time_t t;
    make_machines();
    assert_int_equal(
        mcei_machine_load(&m, "typo", search_path, NULL, err, sizeof(err)),
        MCE_OK);
    assert_string_equal(mcei_machine_str(&m, "network", NULL), "ideal");
    assert_int_equal(
        mcei_machine_time(&m, "latency", 1, 0, &t, err, sizeof(err)), MCE_OK);
    err[0] = '\0';
    assert_int_equal(mcei_machine_check_unused(&m, err, sizeof(err)),
                     MCE_ERR_MACHINE);
    assert_non_null(strstr(err, "unknown key 'latncy'"));
    snprintf(where, sizeof(where), "%s/typo.conf:3", tmp_dir);
    assert_non_null(strstr(err, where));
    assert_non_null(strstr(err, "'typo'"));
    /* once something reads it, it is no longer unknown */
    assert_string_equal(mcei_machine_str(&m, "latncy", NULL), "2 us");
    assert_int_equal(mcei_machine_check_unused(&m, err, sizeof(err)), MCE_OK);
    mcei_machine_free(&m);

    /* an override with a typo is reported with its origin */
    mcei_kvlist_t ov = {0};
    assert_int_equal(mcei_kv_set(&ov, "per_bite", "3", "option --mce-set"),
                     MCE_OK);
    assert_int_equal(
        mcei_machine_load(&m, "typo", search_path, &ov, err, sizeof(err)),
        MCE_OK);
    mcei_machine_str(&m, "network", NULL);
    mcei_machine_str(&m, "latency", NULL);
    mcei_machine_str(&m, "latncy", NULL);
    assert_int_equal(mcei_machine_check_unused(&m, err, sizeof(err)),
                     MCE_ERR_MACHINE);
    assert_non_null(strstr(err, "'per_bite'"));
    assert_non_null(strstr(err, "option --mce-set"));
    mcei_machine_free(&m);
    mcei_kv_free(&ov);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_defaults),
        cmocka_unit_test(test_config_options_removed),
        cmocka_unit_test(test_config_every_option),
        cmocka_unit_test(test_config_plugin_option),
        cmocka_unit_test(test_config_double_dash),
        cmocka_unit_test(test_config_two_word),
        cmocka_unit_test(test_config_flag_values),
        cmocka_unit_test(test_config_environment),
        cmocka_unit_test(test_config_precedence),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_config_file_errors),
        cmocka_unit_test(test_kv_load_good),
        cmocka_unit_test(test_kv_load_bad),
        cmocka_unit_test(test_kv_set),
        cmocka_unit_test(test_machine_by_name),
        cmocka_unit_test(test_machine_inherit),
        cmocka_unit_test(test_machine_by_path),
        cmocka_unit_test(test_machine_errors),
        cmocka_unit_test(test_machine_overrides),
        cmocka_unit_test(test_machine_getters),
        cmocka_unit_test(test_machine_check_unused),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
