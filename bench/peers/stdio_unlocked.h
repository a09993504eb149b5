/* sluice-bench: the stdio calls the stdio rows make per byte or piece
   where a stream's lock would otherwise be taken each time, for C and C++
   alike, and their names for the rows' titles. With glibc: fwrite_unlocked
   and putc_unlocked. With MinGW-w64 the program's stdio is msvcrt.dll,
   whose import library has _putc_nolock (a macro on the stream's buffer)
   but no _fwrite_nolock: those rows call fwrite there, and say so; the
   bytes scenario adds the UCRT's _fwrite_nolock on a stream of the UCRT's
   own (scenarios/bytes_platform_win32.cpp). */
#ifndef SLUICE_BENCH_STDIO_UNLOCKED_H
#define SLUICE_BENCH_STDIO_UNLOCKED_H

#include <stdio.h>

#ifdef _WIN32
#define SLUICE_BENCH_FWRITE_UNLOCKED fwrite
#define SLUICE_BENCH_FWRITE_UNLOCKED_NAME "fwrite"
#define SLUICE_BENCH_PUTC_UNLOCKED _putc_nolock
#define SLUICE_BENCH_PUTC_UNLOCKED_NAME "_putc_nolock"
#else
#define SLUICE_BENCH_FWRITE_UNLOCKED fwrite_unlocked
#define SLUICE_BENCH_FWRITE_UNLOCKED_NAME "fwrite_unlocked"
#define SLUICE_BENCH_PUTC_UNLOCKED putc_unlocked
#define SLUICE_BENCH_PUTC_UNLOCKED_NAME "putc_unlocked"
#endif

#endif /* SLUICE_BENCH_STDIO_UNLOCKED_H */
