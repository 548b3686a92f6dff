/* Placeholder until the store lands. */
#include "nr_store.h"
