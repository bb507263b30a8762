#!/usr/bin/env bash
# h2d_probe.sh DIR - where host-transfer noise comes from (issue 22/25): the host's facts (CPUs, NUMA, THP, memory,
# topology), then scripts/lab/probes/h2d_probe.cu (built by hand, not by CMake:
#   nvcc -O2 -arch=sm_90 -o .carry/probe/h2dprobe scripts/lab/probes/h2d_probe.cu) in separate processes: 6 plain, 6 pinned to
# one CPU each, malloc + cudaHostRegister with and without transparent huge pages, and one process with 16 buffers. Each
# buffer: pinned H2D and D2H (median and max of 5 samples of 4 x 256 MiB), H2D of its two halves apart, and the
# guest-physical place (GiB) of 8 of its pages from /proc/self/pagemap (needs root). Run from the repository root.
W=$1; mkdir -p $W; P=${PROBE:-.carry/probe/h2dprobe}
{ id; nproc; lscpu | head -30; cat /sys/kernel/mm/transparent_hugepage/enabled; numactl -H 2>&1 | head; ls /sys/devices/system/node/; cat /proc/meminfo | head -20; nvidia-smi -L; nvidia-smi topo -m; lspci -tv 2>&1 | head -40; cat /proc/cmdline; } > $W/host.txt 2>&1
for k in 1 2 3 4 5 6; do $P 4 host > $W/proc_host_$k.txt 2>&1; done
for c in 0 3 7 8 11 15; do taskset -c $c $P 3 host > $W/proc_cpu$c.txt 2>&1; done
$P 4 thp > $W/proc_thp.txt 2>&1; $P 4 nothp > $W/proc_nothp.txt 2>&1
$P 16 host > $W/proc_many.txt 2>&1
grep -H "h2d" $W/proc_*.txt | sed 's/gpa_gib.*//' | head -80
