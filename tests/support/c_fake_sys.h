/* c_fake_sys: the fault-injecting seam (fake_sys.hpp) for tests written in C.
 *
 * While a fake is installed, every operation sluice asks of the OS goes
 * through it: each call is counted from the install, and forwarded to the
 * real backend unless the plan says otherwise:
 *
 *   c_fake_install();
 *   c_fake_fail(C_FAKE_SYNC_DATA, c_fake_calls(C_FAKE_SYNC_DATA) + 1, EIO);
 *   c_fake_short_transfer(C_FAKE_WRITE_AT, 2, 10);  // the 2nd pwritev writes 10 bytes
 *   c_fake_interrupt_every_write();  // each pwritev and writev: EINTR once, then the real call
 *   ...
 *   c_fake_remove();
 *
 * One fake at a time: c_fake_install returns EBUSY if one is installed
 * already, 0 otherwise. c_fake_remove restores the real seam (nothing if no
 * fake is installed). No call here lets a C++ exception out. */
#ifndef SLUICE_TEST_C_FAKE_SYS_H
#define SLUICE_TEST_C_FAKE_SYS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The entries of the seam a C test plans or counts. */
typedef enum c_fake_call {
  C_FAKE_OPEN,
  C_FAKE_CLOSE,
  C_FAKE_WRITE_AT,     /* pwritev on a file sluice opened */
  C_FAKE_READ_AT,      /* preadv on a file sluice opened */
  C_FAKE_WRITE_STREAM, /* writev on a pipe or a borrowed descriptor */
  C_FAKE_READ_STREAM,  /* readv on a pipe or a borrowed descriptor */
  C_FAKE_SYNC_DATA,    /* fdatasync */
  C_FAKE_SYNC_ALL,     /* fsync */
  C_FAKE_SYNC_DIRECTORY,
  C_FAKE_PREALLOCATE,
  C_FAKE_WRITEBACK,
  C_FAKE_DROP_CACHE
} c_fake_call;

int c_fake_install(void);
void c_fake_remove(void);

/* The nth call (1-based, counted from the install) of `which` fails with
   `error` instead of reaching the OS. */
void c_fake_fail(c_fake_call which, int nth, int error);
/* The nth call of `which` (a transfer: WRITE_AT, READ_AT, WRITE_STREAM,
   READ_STREAM) transfers only its first `bytes` bytes. */
void c_fake_short_transfer(c_fake_call which, int nth, size_t bytes);
/* Every pwritev and writev fails with EINTR once, then its retry reaches
   the OS. */
void c_fake_interrupt_every_write(void);
/* Calls of `which` that reached the fake, failed and interrupted ones too;
   0 without a fake. */
int c_fake_calls(c_fake_call which);

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_TEST_C_FAKE_SYS_H */
