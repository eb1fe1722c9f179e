// The module is its header (`include/CPrefetch.h`): a static inline function
// Swift inlines at each call. SwiftPM builds a C target from its sources, so
// this file is the target's one translation unit.
#include "CPrefetch.h"
