; nnaccel program package: model demo_mlp, configuration small

; segment 0: operations 0 FULLY_CONNECTED, 1 FULLY_CONNECTED, 2 ADD, 3 RESHAPE
     0: LOAD sp=WGT len=8 sp_addr=960 ext_addr=0x140 x_size=8 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles (resident)
     1: LOAD sp=VEC len=8 sp_addr=104 ext_addr=0x340 x_size=24 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
     2: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x0 x_size=1 y_size=4 x_stride=16 y_stride=16 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=3  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..3 k0
     3: LOAD sp=ACT len=8 sp_addr=4 ext_addr=0x8 x_size=1 y_size=4 x_stride=16 y_stride=16 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=3 push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..3 k8
     4: NOP queue=load push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: nothing to load for step 1
     5: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=1 act=0 acc=0 wgt=960 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c0 k0..15
     6: NOP queue=load pop_next push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: nothing to load for step 2
     7: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=1 act=0 acc=512 wgt=976 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c8 k0..15
     8: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=104 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
     9: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x40 x_size=1 y_size=4 x_stride=32 y_stride=32 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
    10: NOP queue=load pop_next push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: nothing to load for step 3
    11: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=1 act=0 acc=0 wgt=992 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c16 k0..15
    12: VEC func=REQ signed=0 accumulate=0 round=0 dst=2052 src=512 src2=0 param=110 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c8
    13: STORE sp=ACT len=8 sp_addr=2052 ext_addr=0x48 x_size=1 y_size=4 x_stride=32 y_stride=32 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c8
    14: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=1 act=0 acc=512 wgt=1008 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c24 k0..15
    15: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c16
    16: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x50 x_size=1 y_size=4 x_stride=32 y_stride=32 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c16
    17: VEC func=REQ signed=0 accumulate=0 round=0 dst=2052 src=512 src2=0 param=122 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c24
    18: STORE sp=ACT len=8 sp_addr=2052 ext_addr=0x58 x_size=1 y_size=4 x_stride=32 y_stride=32 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c24
    19: LOAD sp=WGT len=8 sp_addr=896 ext_addr=0x640 x_size=8 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles (resident)
    20: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x840 x_size=12 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
    21: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the stores the next pass's first loads read
    22: NOP queue=compute pop_next  # [barrier] barrier: the first stores are done
    23: NOP queue=compute pop_next  # [barrier] barrier: the first stores are done
    24: NOP queue=compute pop_next push_prev  # [barrier] barrier: the first stores are done
    25: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
    26: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
    27: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
    28: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x40 x_size=4 y_size=3 x_stride=32 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..3 k0..7
    29: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    30: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    31: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    32: LOAD sp=ACT len=8 sp_addr=12 ext_addr=0x58 x_size=4 y_size=1 x_stride=32 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..3 k0..7
    33: NOP queue=load push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: nothing to load for step 1
    34: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=3 act=0 acc=0 wgt=896 za=128 zw=0 nx=4 ny=1 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_prev push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c0 k0..31
    35: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=3 act=0 acc=512 wgt=928 za=128 zw=0 nx=4 ny=1 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_prev push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..3 out c8 k0..31
    36: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=4 ny=1 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
    37: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xc0 x_size=4 y_size=1 x_stride=16 y_stride=0 pop_prev push_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
    38: VEC func=REQ signed=0 accumulate=0 round=0 dst=2052 src=512 src2=0 param=6 nx=4 ny=1 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c8
    39: STORE sp=ACT len=8 sp_addr=2052 ext_addr=0xc8 x_size=4 y_size=1 x_stride=16 y_stride=0 pop_prev push_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c8
    40: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    41: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    42: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    43: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    44: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    45: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    46: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    47: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    48: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x9c0 x_size=11 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 ADD] ADD: parameters
    49: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0xc0 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 ADD] ADD: input 0 bytes 0
    50: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x0 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 2 ADD] ADD: input 1 bytes 0
    51: NOP queue=compute pop_prev push_next  # [op 2 ADD] pass the load token to the vector queue
    52: VEC func=ADDQ signed=1 accumulate=0 round=0 dst=0 src=0 src2=2048 param=0 nx=8 ny=1 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev push_next  # [op 2 ADD] ADD
    53: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x100 x_size=8 y_size=1 x_stride=8 y_stride=64 pop_prev push_prev  # [op 2 ADD] ADD: output bytes 0
    54: NOP queue=vector pop_next push_prev  # [op 2 ADD] serial stage: the stores are done
    55: NOP queue=compute pop_next push_prev  # [op 2 ADD] serial stage: release the load queue
    56: FINISH  # end of segment
