// Linked into every shared library of a portable Linux prebuild (KL_GLIBC_BASELINE, see
// cmake/GlibcBaseline.cmake): the few C library symbols that Debian 12's glibc (2.36) and its
// static libstdc++/libgcc would bind to versions newer than glibc 2.28 are redirected here with
// `ld --wrap`, which reaches the references inside libstdc++.a and libgcc_eh.a as well as ours.
//  - Functions glibc 2.34 moved from libpthread/libdl into libc keep their original version
//    (GLIBC_2.2.5 on x86-64, GLIBC_2.17 on AArch64) through `.symver`; libc 2.36 still defines
//    those versions, and on older systems libpthread.so.0 and libdl.so.2 (DT_NEEDED) do.
//  - Symbols older glibc does not have at all get a definition made of older calls:
//    pthread_cond_clockwait (2.30), _dl_find_object (2.35), arc4random (2.36),
//    __libc_single_threaded (2.32).
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#if !defined(__linux__) || !defined(__GLIBC__)
#error "glibc_baseline.cc is for Linux builds against glibc only"
#endif
#include <cstdint>

#if defined(__x86_64__)
#define KL_GLIBC_BASE "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define KL_GLIBC_BASE "GLIBC_2.17"
#else
#error "no glibc baseline version known for this architecture"
#endif

// References from this file to NAME bind to NAME@<base version>.
#define KL_PIN(name) __asm__(".symver " #name "," #name "@" KL_GLIBC_BASE)
KL_PIN(dlopen);
KL_PIN(dlclose);
KL_PIN(dlsym);
KL_PIN(dlerror);
KL_PIN(dladdr);
KL_PIN(pthread_create);
KL_PIN(pthread_detach);
KL_PIN(pthread_join);
KL_PIN(pthread_key_create);
KL_PIN(pthread_key_delete);
KL_PIN(pthread_getspecific);
KL_PIN(pthread_setspecific);
KL_PIN(pthread_once);
KL_PIN(pthread_rwlock_rdlock);
KL_PIN(pthread_rwlock_wrlock);
KL_PIN(pthread_rwlock_unlock);

#define KL_WRAP __attribute__((visibility("hidden")))

extern "C" {

KL_WRAP void* __wrap_dlopen(const char* file, int mode) { return dlopen(file, mode); }
KL_WRAP int __wrap_dlclose(void* handle) { return dlclose(handle); }
KL_WRAP void* __wrap_dlsym(void* handle, const char* name) { return dlsym(handle, name); }
KL_WRAP char* __wrap_dlerror() { return dlerror(); }
KL_WRAP int __wrap_dladdr(const void* address, Dl_info* info) { return dladdr(address, info); }

KL_WRAP int __wrap_pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg) {
  return pthread_create(thread, attr, start, arg);
}
KL_WRAP int __wrap_pthread_detach(pthread_t thread) { return pthread_detach(thread); }
KL_WRAP int __wrap_pthread_join(pthread_t thread, void** result) { return pthread_join(thread, result); }
KL_WRAP int __wrap_pthread_key_create(pthread_key_t* key, void (*destructor)(void*)) {
  return pthread_key_create(key, destructor);
}
// libgcc's gthreads names the same function by its internal alias.
KL_WRAP int __wrap___pthread_key_create(pthread_key_t* key, void (*destructor)(void*)) {
  return pthread_key_create(key, destructor);
}
KL_WRAP int __wrap_pthread_key_delete(pthread_key_t key) { return pthread_key_delete(key); }
KL_WRAP void* __wrap_pthread_getspecific(pthread_key_t key) { return pthread_getspecific(key); }
KL_WRAP int __wrap_pthread_setspecific(pthread_key_t key, const void* value) { return pthread_setspecific(key, value); }
KL_WRAP int __wrap_pthread_once(pthread_once_t* once, void (*init)()) { return pthread_once(once, init); }
KL_WRAP int __wrap_pthread_rwlock_rdlock(pthread_rwlock_t* lock) { return pthread_rwlock_rdlock(lock); }
KL_WRAP int __wrap_pthread_rwlock_wrlock(pthread_rwlock_t* lock) { return pthread_rwlock_wrlock(lock); }
KL_WRAP int __wrap_pthread_rwlock_unlock(pthread_rwlock_t* lock) { return pthread_rwlock_unlock(lock); }

// std::condition_variable::wait_until on the steady clock. Before 2.30 only CLOCK_REALTIME
// deadlines exist: the monotonic deadline becomes the same distance from now on the real-time
// clock (a wall-clock jump during the wait moves the wake-up, as it did before glibc 2.30).
KL_WRAP int __wrap_pthread_cond_clockwait(pthread_cond_t* cond, pthread_mutex_t* mutex, clockid_t clock,
                                          const struct timespec* deadline) {
  if (clock == CLOCK_REALTIME) return pthread_cond_timedwait(cond, mutex, deadline);
  if (clock != CLOCK_MONOTONIC) return EINVAL;
  timespec now_monotonic{};
  timespec now_realtime{};
  clock_gettime(CLOCK_MONOTONIC, &now_monotonic);
  clock_gettime(CLOCK_REALTIME, &now_realtime);
  const std::int64_t ns_per_s = 1000000000;
  std::int64_t remaining = (static_cast<std::int64_t>(deadline->tv_sec) - now_monotonic.tv_sec) * ns_per_s +
                           (deadline->tv_nsec - now_monotonic.tv_nsec);
  if (remaining < 0) remaining = 0;
  const std::int64_t target = static_cast<std::int64_t>(now_realtime.tv_sec) * ns_per_s + now_realtime.tv_nsec + remaining;
  timespec realtime_deadline{};
  realtime_deadline.tv_sec = static_cast<time_t>(target / ns_per_s);
  realtime_deadline.tv_nsec = static_cast<long>(target % ns_per_s);
  return pthread_cond_timedwait(cond, mutex, &realtime_deadline);
}

#if __GLIBC_PREREQ(2, 35)
// libgcc's unwinder asks glibc ≥ 2.35 which object holds a code address and where its
// .eh_frame_hdr is. The same answer from dl_iterate_phdr (what libgcc itself used before);
// only the fields the unwinder reads are filled.
namespace {
struct FindObjectQuery {
  std::uintptr_t pc;
  dl_find_object* result;
  bool found;
};

int FindObjectInModule(dl_phdr_info* info, size_t, void* data) {
  auto* query = static_cast<FindObjectQuery*>(data);
  bool contains = false;
  std::uintptr_t start = UINTPTR_MAX;
  std::uintptr_t end = 0;
  const void* eh_frame = nullptr;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    const std::uintptr_t segment = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD) {
      if (query->pc >= segment && query->pc < segment + ph.p_memsz) contains = true;
      if (segment < start) start = segment;
      if (segment + ph.p_memsz > end) end = segment + ph.p_memsz;
    } else if (ph.p_type == PT_GNU_EH_FRAME) {
      eh_frame = reinterpret_cast<const void*>(segment);
    }
  }
  if (!contains) return 0;
  query->result->dlfo_flags = 0;
  query->result->dlfo_map_start = reinterpret_cast<void*>(start);
  query->result->dlfo_map_end = reinterpret_cast<void*>(end);
  query->result->dlfo_link_map = nullptr;
  query->result->dlfo_eh_frame = const_cast<void*>(eh_frame);
  query->found = true;
  return 1;
}
}  // namespace

KL_WRAP int __wrap__dl_find_object(void* pc, dl_find_object* result) {
  FindObjectQuery query{reinterpret_cast<std::uintptr_t>(pc), result, false};
  dl_iterate_phdr(FindObjectInModule, &query);
  return query.found ? 0 : -1;
}
#endif

// libstdc++'s std::random_device ("default" token): getrandom (Linux 3.17) by system call
// number, /dev/urandom where the kernel lacks it.
KL_WRAP std::uint32_t __wrap_arc4random() {
  std::uint32_t value = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(&value);
  std::size_t have = 0;
  while (have < sizeof value) {
    const long n = syscall(SYS_getrandom, bytes + have, sizeof value - have, 0);
    if (n > 0) {
      have += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  if (have < sizeof value) {
    const int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    while (fd >= 0 && have < sizeof value) {
      const ssize_t n = read(fd, bytes + have, sizeof value - have);
      if (n <= 0 && errno != EINTR) break;
      if (n > 0) have += static_cast<std::size_t>(n);
    }
    if (fd >= 0) close(fd);
  }
  // glibc's own arc4random ends the process when no randomness can be had; so does this one.
  if (have < sizeof value) abort();
  return value;
}

// Zero: "the process may have several threads", so libstdc++ always uses atomic reference
// counts, which is correct whatever the process does (glibc ≥ 2.32 only speeds up the other case).
KL_WRAP extern const char __wrap___libc_single_threaded = 0;

}  // extern "C"
