/* A fake libnvidia-ml for tests: the NVML calls Llama Tray binds, with the H200's
 * figures. FAKE_NVML_INIT_ERROR / FAKE_NVML_TEMP_ERROR (read at call time) make
 * nvmlInit_v2 / nvmlDeviceGetTemperature return that code; FAKE_NVML_COUNT sets
 * the GPU count; FAKE_NVML_CALLS names a file that gets one line per call
 * that reaches the GPU (init, count, handle, device queries). Build variants drop symbols: -DNO_INIT, -DNO_MEMORY_V2,
 * -DNO_EVENT_REASONS (keeps the old ThrottleReasons name), -DNO_POWER. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
static void note_call(const char *name) { const char *f = getenv("FAKE_NVML_CALLS"); if (!f) return;
  FILE *o = fopen(f, "a"); if (o) { fputs(name, o); fputc('\n', o); fclose(o); } }
typedef struct { int index; } dev_t_;
static dev_t_ devs[8] = {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}};
static int inited = 0;
static int env_int(const char *n, int d) { const char *v = getenv(n); return v ? atoi(v) : d; }
#define DEV(d) note_call(__func__); if (!inited) return 1; if (!(d)) return 2;
#ifndef NO_INIT
int nvmlInit_v2(void) { note_call(__func__); int e = env_int("FAKE_NVML_INIT_ERROR", 0); if (!e) inited++; return e; }
#endif
int nvmlShutdown(void) { if (inited > 0) inited--; return 0; } /* NVML counts inits: the last shutdown ends it */
const char *nvmlErrorString(int r) { return r == 9 ? "Driver Not Loaded" : r == 3 ? "Not Supported" : r == 25 ? "Argument version mismatch" : "Unknown Error"; }
int nvmlDeviceGetCount_v2(unsigned *n) { note_call(__func__); if (!inited) return 1; *n = env_int("FAKE_NVML_COUNT", 1); return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, dev_t_ **d) { note_call(__func__); if (!inited) return 1; if (i >= (unsigned)env_int("FAKE_NVML_COUNT", 1)) return 2; *d = &devs[i]; return 0; }
int nvmlDeviceGetName(dev_t_ *d, char *name, unsigned len) { DEV(d) strncpy(name, "NVIDIA H200", len); return 0; }
typedef struct { unsigned version; unsigned long long total, reserved, free, used; } mem2_t;
typedef struct { unsigned long long total, free, used; } mem1_t;
#define MiB (1024ULL * 1024ULL)
#ifndef NO_MEMORY_V2
int nvmlDeviceGetMemoryInfo_v2(dev_t_ *d, mem2_t *m) { DEV(d) if (m->version != (sizeof(mem2_t) | (2u << 24))) return 25;
  m->total = 143771 * MiB; m->reserved = 616 * MiB; m->used = 102927 * MiB; m->free = 40228 * MiB; return 0; }
#endif
int nvmlDeviceGetMemoryInfo(dev_t_ *d, mem1_t *m) { DEV(d) m->total = 143771 * MiB; m->used = 103543 * MiB; m->free = 40228 * MiB; return 0; }
int nvmlDeviceGetTemperature(dev_t_ *d, int sensor, unsigned *t) { DEV(d) int e = env_int("FAKE_NVML_TEMP_ERROR", 0); if (e) return e; if (sensor != 0) return 2; *t = 36 + d->index; return 0; }
typedef struct { unsigned gpu, memory; } util_t;
int nvmlDeviceGetUtilizationRates(dev_t_ *d, util_t *u) { DEV(d) u->gpu = 97; u->memory = 41; return 0; }
#ifndef NO_POWER
int nvmlDeviceGetPowerUsage(dev_t_ *d, unsigned *mw) { DEV(d) *mw = 612345; return 0; }
int nvmlDeviceGetEnforcedPowerLimit(dev_t_ *d, unsigned *mw) { DEV(d) *mw = 700000; return 0; }
/* The energy counter moves 612345 mJ per call (a second at 612 W); FAKE_NVML_ENERGY_ERROR makes it fail (3: Not Supported). */
static unsigned long long energy_mj = 1000000000ULL;
int nvmlDeviceGetTotalEnergyConsumption(dev_t_ *d, unsigned long long *mj) { DEV(d) int e = env_int("FAKE_NVML_ENERGY_ERROR", 0); if (e) return e;
  energy_mj += 612345; *mj = energy_mj; return 0; }
#endif
int nvmlDeviceGetClockInfo(dev_t_ *d, int type, unsigned *mhz) { DEV(d) if (type != 1) return 2; *mhz = 1980; return 0; }
int nvmlDeviceGetPerformanceState(dev_t_ *d, int *p) { DEV(d) *p = 0; return 0; }
#ifndef NO_EVENT_REASONS
int nvmlDeviceGetCurrentClocksEventReasons(dev_t_ *d, unsigned long long *r) { DEV(d) *r = 0x4ULL | 0x20ULL; return 0; }
#endif
int nvmlDeviceGetCurrentClocksThrottleReasons(dev_t_ *d, unsigned long long *r) { DEV(d) *r = 0x1ULL; return 0; }
int nvmlSystemGetDriverVersion(char *v, unsigned len) { strncpy(v, "580.159.04", len); return 0; }
int nvmlSystemGetCudaDriverVersion_v2(int *v) { *v = 13000; return 0; }
/* Running processes (nvmlProcessInfo_t, 24 bytes): FAKE_NVML_PROCS=0 lists none; otherwise compute holds pid 4242
 * (5120 MiB) and 77 (300 MiB) on device 0, graphics holds 4242 again and 900 with "not available" memory (WDDM). */
typedef struct { unsigned pid; unsigned long long used; unsigned gi, ci; } proc_t;
static int fill(dev_t_ *d, unsigned *count, proc_t *out, const proc_t *src, unsigned n) {
  if (env_int("FAKE_NVML_PROCS", 1) == 0 || d->index != 0) n = 0;
  if (*count < n) { *count = n; return 7; }
  for (unsigned i = 0; i < n; i++) out[i] = src[i];
  *count = n; return 0; }
#ifndef NO_PROCESSES
int nvmlDeviceGetComputeRunningProcesses_v3(dev_t_ *d, unsigned *count, proc_t *out) { DEV(d)
  const proc_t src[2] = {{4242, 5120 * MiB, 0xffffffff, 0xffffffff}, {77, 300 * MiB, 0xffffffff, 0xffffffff}};
  return fill(d, count, out, src, 2); }
int nvmlDeviceGetGraphicsRunningProcesses_v3(dev_t_ *d, unsigned *count, proc_t *out) { DEV(d)
  const proc_t src[2] = {{4242, 5000 * MiB, 0xffffffff, 0xffffffff}, {900, 0xffffffffffffffffULL, 0xffffffff, 0xffffffff}};
  return fill(d, count, out, src, 2); }
#endif
