// glibc's malloc tuning (malloc.h), which Swift's Glibc module does not carry.
#include <malloc.h>

/// Large blocks from `bytes` up are mmapped and given back when freed, however many were freed
/// before (glibc otherwise raises the threshold after each). Returns 1 on success.
static inline int cmalloc_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
