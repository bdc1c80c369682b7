/*
 * dd.h - `cryptobench dd` over a chosen I/O layer: cmd_dd() is
 * cmd_dd_io(argc, argv, &dd_io_posix); a test passes a layer that injects
 * faults (tests/test_dd_faults.c).  Returns the exit code, as cmd_dd.
 */
#ifndef CB_DD_H
#define CB_DD_H

#include "dd/dd_io.h"

int cmd_dd_io(int argc, char **argv, const struct dd_io *io);

#endif
