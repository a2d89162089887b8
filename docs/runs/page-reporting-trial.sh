#!/bin/bash
# Does freeing memory pause the VM? Used for vm-pauses-page-reporting-2026-12-06.txt.
#   gcc -O2 -pthread -o vm-pauses vm-pauses.c
#   ./page-reporting-trial.sh LABEL 'ACTION'     e.g. 'rm /work/pz-big' or 'echo 1 > /proc/sys/vm/drop_caches'
# Writes 6 GiB of zeros to /work/pz-big, syncs, idles 8 s, then runs the two-thread probe for 30 s with ACTION
# at 2 s, sampling the guest's free page reporting counters (reported KiB, passes) once a second. Prints the
# seconds with a gap over 5 ms, the steal ticks, the discard counters of /sys/block/vda/stat (ios, merges,
# sectors, ticks) around the action, and the MiB reported and passes made in each second.
set -eu
label=$1; action=$2
reporting=/sys/module/page_reporting/parameters
discards() { awk '{print $12, $13, $14, $15}' /sys/block/vda/stat; }
dd if=/dev/zero of=/work/pz-big bs=1M count=6144 status=none; sync; sleep 8
discards_before=$(discards)
./vm-pauses 30 > probe.out & probe=$!
( for i in $(seq 0 29); do echo "$i $(cat $reporting/reported_kib) $(cat $reporting/passes)"; sleep 1; done ) > reported.out &
sleep 2; t0=$(date +%s.%N); eval "$action"; t1=$(date +%s.%N)
wait $probe; wait
discards_after=$(discards)
rm -f /work/pz-big
echo "=== $label $(date -u +%H:%M:%S), / mounted $(mount | awk '$3=="/"{print $6}'), reporting order $(cat $reporting/page_reporting_order)"
echo "action: $action, took $(echo "$t1 - $t0" | bc) s; discards before: $discards_before, after: $discards_after"
awk '/maxgap/ { if ($4+0 > 5000 || $5+0 > 5000) print } /steal/ {print}' probe.out
awk 'NR==1{k=$2;p=$3} {printf "%s:+%dMiB/%dp ", $1, ($2-k)/1024, $3-p; k=$2; p=$3} END{print ""}' reported.out
