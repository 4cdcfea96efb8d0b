#include <pulse/pulseaudio.h>
#include <pulse/error.h>
