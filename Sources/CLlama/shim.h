// llama.h from the cache prefix built by `make deps` (found through -I, see Package.swift).
#include <llama.h>
