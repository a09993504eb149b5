// sluice/sluice.hpp - everything sluice offers, in one include.
#pragma once

#include "sluice/error.hpp"
#include "sluice/escape.hpp"
#include "sluice/file.hpp"
<<<<<<< HEAD
#include "sluice/journal.hpp"
=======
#include "sluice/format.hpp"
#include "sluice/ostream.hpp"
>>>>>>> format
#include "sluice/writer.hpp"
