nvidia-smi --query-gpu=name\,driver_version --format=csv 
ncu --version 
cuobjdump -sass build-probe/tests/gpu/gm_probe > /root/out/probe.sass 2>&1
ncu --clock-control none --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum\,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum\,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum --kernel-name regex:probe_ --export /root/out/ncu_probe --force-overwrite build-probe/tests/gpu/gm_probe run > /root/out/ncu_probe.log 2>&1
ncu --import /root/out/ncu_probe.ncu-rep --csv --page raw --print-units base > /root/out/ncu_probe.csv
build-probe/tests/gpu/gm_probe compare /root/out/ncu_probe.csv /root/out/model-vs-counters.csv | tee /root/out/model-vs-counters.txt
