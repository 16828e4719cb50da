/* SPDX-License-Identifier: GPL-2.0 */
/* The tree's tools/bpf/runqslower/runqslower.c, built on a light skeleton
 * (tests/Makefile: -include this): its one call that a light skeleton
 * spells another way, the fd of its events map; and stdout line-buffered,
 * so that what it printed reaches a file when the test's timeout stops it.
 */
#include <stdio.h>
#include <bpf/libbpf.h>

#define bpf_map__fd(map) ((map).map_fd)

__attribute__((constructor)) static void runqslower_line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}
