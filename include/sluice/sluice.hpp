// sluice/sluice.hpp - everything sluice offers, in one include.
#pragma once

#include "sluice/error.hpp"
#include "sluice/escape.hpp"
#include "sluice/fields.hpp"
#include "sluice/file.hpp"
#include "sluice/format.hpp"
#include "sluice/journal.hpp"
#include "sluice/ostream.hpp"
#include "sluice/parse.hpp"
#include "sluice/reader.hpp"
#include "sluice/version.hpp"
#include "sluice/writer.hpp"
