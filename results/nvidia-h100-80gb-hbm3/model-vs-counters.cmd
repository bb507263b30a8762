nvidia-smi --query-gpu=name\,driver_version --format=csv 
ncu --version 
cuobjdump -sass build/tests/gpu/gm_probe > /tmp/gpumem-work/probe/probe.sass 2>&1
ncu --clock-control none --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum\,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum\,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum --kernel-name regex:probe_ --export /tmp/gpumem-work/probe/ncu_probe --force-overwrite build/tests/gpu/gm_probe run > /tmp/gpumem-work/probe/ncu_probe.log 2>&1
ncu --import /tmp/gpumem-work/probe/ncu_probe.ncu-rep --csv --page raw --print-units base > /tmp/gpumem-work/probe/ncu_probe.csv
build/tests/gpu/gm_probe compare /tmp/gpumem-work/probe/ncu_probe.csv /tmp/gpumem-work/probe/model-vs-counters.csv | tee /tmp/gpumem-work/probe/model-vs-counters.txt
