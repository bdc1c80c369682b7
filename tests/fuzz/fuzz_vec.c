/* fuzz_vec.c - the vectors parser (src/foundation/vec.c vec_read, parse_line): the
 * input is a vectors file. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "foundation/vec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vec_file vf;
	char path[64];
	int fd = memfd_create("fuzz.vec", 0);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	memset(&vf, 0, sizeof vf);
	if (vec_read(path, &vf) == 0) {
		for (size_t i = 0; i < vf.n; i++)
			(void)vec_get(&vf.recs[i], "alg");
		vec_free(&vf);
	}
	close(fd);
	return 0;
}
