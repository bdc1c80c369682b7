/*
 * cmd.h - the subcommands.  Each takes (argc, argv) with argv[0] the
 * subcommand name and returns the process exit code (CB_EXIT_*).  Each
 * command file also exports its descriptor: the option table its parser
 * uses, from which main.c generates `cryptobench help CMD` and
 * `cryptobench CMD --help`, and the texts around it.  The dispatch table
 * in main.c lists the descriptors, sorted by name.
 */
#ifndef CB_CMD_H
#define CB_CMD_H

struct cb_opt;

struct cb_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const struct cb_opt *opts;  /* the parser's table; NULL: none      */
	const struct cb_opt *(*opts_fn)(void);  /* or the table built here  */
	const char *synopsis;       /* after "cryptobench "; may span lines */
	const char *summary;        /* one line                            */
	const char *more;           /* after the option list, or NULL      */
};

extern const struct cb_command cb_cmd_bench, cb_cmd_compare, cb_cmd_ct, cb_cmd_dd,
	cb_cmd_import, cb_cmd_kat, cb_cmd_list, cb_cmd_report, cb_cmd_speed, cb_cmd_sysinfo,
	cb_cmd_tcrypt;

int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_ct(int argc, char **argv);
int cmd_dd(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_kat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_speed(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_tcrypt(int argc, char **argv);

#endif
