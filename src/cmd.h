/*
 * cmd.h - the subcommands.  Each takes (argc, argv) with argv[0] the
 * subcommand name and returns the process exit code (CB_EXIT_*).  The
 * dispatch table is in main.c, sorted by name.
 */
#ifndef CB_CMD_H
#define CB_CMD_H

int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_dd(int argc, char **argv);
int cmd_kat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_speed(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);

#endif
