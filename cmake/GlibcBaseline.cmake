# Portable Linux prebuilds (KL_GLIBC_BASELINE=ON, set by scripts/prebuild.ts): every shared library
# loads on glibc 2.28 and later although it is built against Debian 12's glibc 2.36.
#  - the C++ runtime is linked statically (-static-libstdc++ -static-libgcc): no GLIBCXX_/CXXABI_
#    dependency on the target's libstdc++;
#  - the symbols that would bind to a glibc version newer than 2.28 (listed below) are redirected
#    with `ld --wrap` to native/common/glibc_baseline.cc, which pins each to its original
#    version or builds it from older calls. --wrap reaches the references inside libstdc++.a and
#    libgcc_eh.a too, which a `.symver` in our own sources cannot;
#  - libpthread.so.0 and libdl.so.2 are named as DT_NEEDED: before glibc 2.34 the pinned
#    pthread_*/dl* functions live there (on newer glibc they are empty stubs).
# test/packaging/symbol-versions.test.ts reads every shipped ELF file's version needs and fails on
# anything newer than GLIBC_2.28 or on any GLIBCXX_/CXXABI_ need.
set(KL_GLIBC_BASELINE_WRAPPED
  dlopen dlclose dlsym dlerror dladdr
  pthread_create pthread_detach pthread_join pthread_key_create __pthread_key_create pthread_key_delete
  pthread_getspecific pthread_setspecific pthread_once pthread_rwlock_rdlock pthread_rwlock_wrlock
  pthread_rwlock_unlock pthread_cond_clockwait _dl_find_object arc4random __libc_single_threaded)

function(kl_glibc_baseline target)
  target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/native/common/glibc_baseline.cc)
  set(wraps "")
  foreach(symbol IN LISTS KL_GLIBC_BASELINE_WRAPPED)
    list(APPEND wraps "-Wl,--wrap=${symbol}")
  endforeach()
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc ${wraps}
    -Wl,--push-state,--no-as-needed -l:libpthread.so.0 -l:libdl.so.2 -Wl,--pop-state)
endfunction()
