; nnaccel program package: model demo_mlp, configuration small

; segment 0: operations 0 FULLY_CONNECTED, 1 FULLY_CONNECTED, 2 ADD, 3 RESHAPE
     0: LOAD sp=WGT len=8 sp_addr=1008 ext_addr=0x140 x_size=8 y_size=2 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles out c0 k0.. (resident)
     1: LOAD sp=VEC len=8 sp_addr=104 ext_addr=0x340 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters out c0.. (resident)
     2: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x0 x_size=1 y_size=4 x_stride=16 y_stride=16 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=3  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..3 k0
     3: LOAD sp=ACT len=8 sp_addr=4 ext_addr=0x8 x_size=1 y_size=4 x_stride=16 y_stride=16 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=3 push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..3 k8
     4: LOAD sp=WGT len=8 sp_addr=992 ext_addr=0x1c0 x_size=8 y_size=2 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles out c8 k0.. (resident)
     5: LOAD sp=VEC len=8 sp_addr=110 ext_addr=0x400 x_size=18 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters out c8.. (resident)
     6: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=1 act=0 acc=0 wgt=1008 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c0 k0..15
     7: LOAD sp=WGT len=8 sp_addr=976 ext_addr=0x240 x_size=8 y_size=2 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles out c16 k0.. (resident)
     8: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=1 act=0 acc=512 wgt=992 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c8 k0..15
     9: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=104 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
    10: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x40 x_size=1 y_size=4 x_stride=32 y_stride=32 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
    11: LOAD sp=WGT len=8 sp_addr=960 ext_addr=0x2c0 x_size=8 y_size=2 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles out c24 k0.. (resident)
    12: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=1 act=0 acc=0 wgt=976 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c16 k0..15
    13: VEC func=REQ signed=0 accumulate=0 round=0 dst=2052 src=512 src2=0 param=110 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c8
    14: STORE sp=ACT len=8 sp_addr=2052 ext_addr=0x48 x_size=1 y_size=4 x_stride=32 y_stride=32 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c8
    15: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=1 act=0 acc=512 wgt=960 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c24 k0..15
    16: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c16
    17: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x50 x_size=1 y_size=4 x_stride=32 y_stride=32 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c16
    18: VEC func=REQ signed=0 accumulate=0 round=0 dst=2052 src=512 src2=0 param=122 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c24
    19: STORE sp=ACT len=8 sp_addr=2052 ext_addr=0x58 x_size=1 y_size=4 x_stride=32 y_stride=32 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c24
    20: LOAD sp=WGT len=8 sp_addr=928 ext_addr=0x640 x_size=8 y_size=4 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles out c0 k0.. (resident)
    21: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x840 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters out c0.. (resident)
    22: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the stores the next pass's first loads read
    23: NOP queue=compute pop_next  # [barrier] barrier: the first stores are done
    24: NOP queue=compute pop_next  # [barrier] barrier: the first stores are done
    25: NOP queue=compute pop_next push_prev  # [barrier] barrier: the first stores are done
    26: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
    27: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
    28: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
    29: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x40 x_size=4 y_size=3 x_stride=32 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..3 k0..7
    30: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    31: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    32: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    33: LOAD sp=ACT len=8 sp_addr=12 ext_addr=0x58 x_size=4 y_size=1 x_stride=32 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..3 k0..7
    34: LOAD sp=WGT len=8 sp_addr=896 ext_addr=0x740 x_size=8 y_size=4 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles out c8 k0.. (resident)
    35: LOAD sp=VEC len=8 sp_addr=6 ext_addr=0x900 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters out c8.. (resident)
    36: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=3 act=0 acc=0 wgt=928 za=128 zw=0 nx=4 ny=1 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_prev push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c0 k0..31
    37: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=3 act=0 acc=512 wgt=896 za=128 zw=0 nx=4 ny=1 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_prev push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c8 k0..31
    38: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=4 ny=1 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
    39: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xc0 x_size=4 y_size=1 x_stride=16 y_stride=0 pop_prev push_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
    40: VEC func=REQ signed=0 accumulate=0 round=0 dst=2052 src=512 src2=0 param=6 nx=4 ny=1 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c8
    41: STORE sp=ACT len=8 sp_addr=2052 ext_addr=0xc8 x_size=4 y_size=1 x_stride=16 y_stride=0 pop_prev push_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c8
    42: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    43: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    44: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    45: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    46: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    47: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    48: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    49: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    50: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x9c0 x_size=11 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 ADD] ADD: parameters
    51: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0xc0 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 ADD] ADD: input 0 bytes 0
    52: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x0 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 2 ADD] ADD: input 1 bytes 0
    53: NOP queue=compute pop_prev push_next  # [op 2 ADD] pass the load token to the vector queue
    54: VEC func=ADDQ signed=1 accumulate=0 round=0 dst=0 src=0 src2=2048 param=0 nx=8 ny=1 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev push_next  # [op 2 ADD] ADD
    55: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x100 x_size=8 y_size=1 x_stride=8 y_stride=64 pop_prev push_prev  # [op 2 ADD] ADD: output bytes 0
    56: NOP queue=vector pop_next push_prev  # [op 2 ADD] serial stage: the stores are done
    57: NOP queue=compute pop_next push_prev  # [op 2 ADD] serial stage: release the load queue
    58: FINISH  # end of segment
