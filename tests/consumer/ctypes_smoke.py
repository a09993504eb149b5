#!/usr/bin/env python3
"""Binds an installed shared libsluice from Python with ctypes alone, as any
language's C binding would: a writer writes lines through options given as
a ctypes Structure, a reader reads them back, a journal round-trips records,
and an error comes back as its errno value with the library's message.
sluice_writer_put and sluice_writer_write are macros in c.h; a binding calls
the exported functions of the same names.

    ctypes_smoke.py <prefix of the shared install> <scratch directory>
"""

import ctypes
import errno
import os
import sys
import tempfile

SLUICE_EOF = -1


class WriterOptions(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("buffer_size", ctypes.c_size_t),
                ("preallocate", ctypes.c_uint64), ("durability", ctypes.c_int),
                ("caching", ctypes.c_int), ("atomic_replace", ctypes.c_int),
                ("write_behind", ctypes.c_int)]


SLUICE_DURABILITY_DATA_ON_CLOSE = 1

# (name, result type, argument types) of every function called here: ctypes
# would otherwise pass 64-bit values and pointers as C ints.
P = ctypes.c_void_p
PP = ctypes.POINTER(ctypes.c_void_p)
SIZE = ctypes.c_size_t
U64 = ctypes.c_uint64
SIGNATURES = [
    ("sluice_last_error", ctypes.c_char_p, []),
    ("sluice_writer_options_init", None, [ctypes.POINTER(WriterOptions)]),
    ("sluice_writer_open", ctypes.c_int, [PP, ctypes.c_char_p, ctypes.POINTER(WriterOptions)]),
    ("sluice_writer_write", ctypes.c_int, [P, ctypes.c_char_p, SIZE]),
    ("sluice_writer_put", ctypes.c_int, [P, ctypes.c_char]),
    ("sluice_writer_print_i64", ctypes.c_int, [P, ctypes.c_int64]),
    ("sluice_writer_tell", U64, [P]),
    ("sluice_writer_close", ctypes.c_int, [P]),
    ("sluice_reader_open", ctypes.c_int, [PP, ctypes.c_char_p, P]),
    ("sluice_reader_read_line", ctypes.c_int,
     [P, ctypes.POINTER(ctypes.POINTER(ctypes.c_char)), ctypes.POINTER(SIZE)]),
    ("sluice_reader_close", ctypes.c_int, [P]),
    ("sluice_journal_open", ctypes.c_int, [PP, ctypes.c_char_p, P]),
    ("sluice_journal_write", ctypes.c_int, [P, ctypes.c_char_p, SIZE, ctypes.POINTER(U64)]),
    ("sluice_journal_read_from", ctypes.c_int, [P, U64, PP]),
    ("sluice_journal_cursor_next", ctypes.c_int,
     [P, ctypes.POINTER(U64), PP, ctypes.POINTER(SIZE)]),
    ("sluice_journal_cursor_close", None, [P]),
    ("sluice_journal_close", ctypes.c_int, [P]),
]


class Failure(Exception):
    pass


def find_library(prefix):
    found = [os.path.join(root, "libsluice.so")
             for root, _, files in os.walk(prefix) if "libsluice.so" in files]
    if len(found) != 1:
        raise Failure(f"expected one libsluice.so under {prefix}, found {found}")
    return found[0]


def load(path):
    lib = ctypes.CDLL(path)
    for name, result, arguments in SIGNATURES:
        function = getattr(lib, name)
        function.restype = result
        function.argtypes = arguments
    return lib


def expect(condition, what):
    if not condition:
        raise Failure(what)


def call(lib, name, *arguments):
    """Calls a function that returns 0 or an errno value; raises on the latter."""
    error = getattr(lib, name)(*arguments)
    if error != 0:
        raise Failure(f"{name} returned {error}: {lib.sluice_last_error().decode()}")


def write_lines(lib, path, count):
    options = WriterOptions()
    lib.sluice_writer_options_init(ctypes.byref(options))
    expect(options.size == ctypes.sizeof(WriterOptions),
           f"sluice_writer_options_init set size {options.size}, "
           f"the struct here is {ctypes.sizeof(WriterOptions)} bytes")
    expect(options.buffer_size == 0 and options.durability == 0,
           "sluice_writer_options_init left a default that is not 0")
    options.buffer_size = 4096  # many flushes for the lines below
    options.durability = SLUICE_DURABILITY_DATA_ON_CLOSE
    writer = ctypes.c_void_p()
    call(lib, "sluice_writer_open", ctypes.byref(writer), path.encode(), ctypes.byref(options))
    for i in range(count):
        text = f"line {i}".encode()
        call(lib, "sluice_writer_write", writer, text, len(text))
        call(lib, "sluice_writer_put", writer, b" ")
        call(lib, "sluice_writer_print_i64", writer, -i)
        call(lib, "sluice_writer_put", writer, b"\n")
    told = lib.sluice_writer_tell(writer)
    call(lib, "sluice_writer_close", writer)
    return told


def read_lines(lib, path):
    reader = ctypes.c_void_p()
    call(lib, "sluice_reader_open", ctypes.byref(reader), path.encode(), None)
    line = ctypes.POINTER(ctypes.c_char)()
    size = ctypes.c_size_t()
    lines = []
    while True:
        status = lib.sluice_reader_read_line(reader, ctypes.byref(line), ctypes.byref(size))
        if status == SLUICE_EOF:
            break
        if status != 0:
            raise Failure(f"sluice_reader_read_line returned {status}: "
                          f"{lib.sluice_last_error().decode()}")
        lines.append(ctypes.string_at(line, size.value).decode())
    call(lib, "sluice_reader_close", reader)
    return lines


def journal_round_trip(lib, directory, records):
    journal = ctypes.c_void_p()
    call(lib, "sluice_journal_open", ctypes.byref(journal), directory.encode(), None)
    lsn = ctypes.c_uint64()
    for i, record in enumerate(records):
        call(lib, "sluice_journal_write", journal, record, len(record), ctypes.byref(lsn))
        expect(lsn.value == i + 1, f"record {i} got lsn {lsn.value}")
    cursor = ctypes.c_void_p()
    call(lib, "sluice_journal_read_from", journal, 1, ctypes.byref(cursor))
    data = ctypes.c_void_p()
    size = ctypes.c_size_t()
    seen = []
    while True:
        status = lib.sluice_journal_cursor_next(cursor, ctypes.byref(lsn), ctypes.byref(data),
                                                ctypes.byref(size))
        if status == SLUICE_EOF:
            break
        if status != 0:
            raise Failure(f"sluice_journal_cursor_next returned {status}: "
                          f"{lib.sluice_last_error().decode()}")
        seen.append((lsn.value, ctypes.string_at(data, size.value)))
    lib.sluice_journal_cursor_close(cursor)
    call(lib, "sluice_journal_close", journal)
    return seen


def open_fails(lib, directory):
    writer = ctypes.c_void_p(1)
    path = os.path.join(directory, "missing", "out.txt")
    status = lib.sluice_writer_open(ctypes.byref(writer), path.encode(), None)
    expect(status == errno.ENOENT, f"sluice_writer_open in a missing directory returned {status}")
    expect(not writer.value, "a failed sluice_writer_open left a handle")
    message = lib.sluice_last_error().decode()
    expect(path in message, f"sluice_last_error() does not name {path}: {message!r}")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    lib = load(find_library(sys.argv[1]))
    os.makedirs(sys.argv[2], exist_ok=True)
    work = tempfile.mkdtemp(dir=sys.argv[2])

    path = os.path.join(work, "lines.txt")
    count = 5000
    told = write_lines(lib, path, count)
    expected = [f"line {i} {-i}" for i in range(count)]
    expect(told == os.path.getsize(path), f"tell() said {told}, the file has "
                                          f"{os.path.getsize(path)} bytes")
    lines = read_lines(lib, path)
    expect(lines == expected, f"read back {len(lines)} lines, the first that differs: "
           + next((repr(a) for a, b in zip(lines, expected) if a != b), "none"))

    records = [b"one", b"", b"\x00binary\xff", b"x" * 100000]
    seen = journal_round_trip(lib, os.path.join(work, "journal"), records)
    expect(seen == list(enumerate(records, 1)),
           f"the journal read back {[(lsn, len(r)) for lsn, r in seen]}")

    open_fails(lib, work)
    print(f"ctypes drove {lib._name}: {count} lines written and read, "
          f"{len(records)} journal records round-tripped")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as failure:
        print(f"ctypes_smoke: {failure}", file=sys.stderr)
        sys.exit(1)
