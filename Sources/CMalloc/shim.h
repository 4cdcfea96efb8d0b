// glibc's malloc tuning (malloc.h), which Swift's Glibc module does not carry.
#include <malloc.h>

/// Large blocks from `bytes` up are mmapped and given back when freed, however many were freed
/// before (glibc otherwise raises the threshold after each). Returns 1 on success.
static inline int cmalloc_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

/// Every thread allocates from the main arena, which grows in steps of M_TOP_PAD; another
/// thread's arena grows a page at a time, an mprotect call each. Returns 1 on success.
static inline int cmalloc_one_arena(void) { return mallopt(M_ARENA_MAX, 1); }
