; nnaccel program package: model mobilenet_block_8x8x8, configuration small

; segment 0: operations 0 CONV_2D, 1 DEPTHWISE_CONV_2D, 2 CONV_2D, 3 ADD
     0: LOAD sp=WGT len=8 sp_addr=1016 ext_addr=0x1e00 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles out c0 k0.. (resident)
     1: LOAD sp=VEC len=8 sp_addr=92 ext_addr=0x1f80 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters out c0.. (resident)
     2: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x0 x_size=3 y_size=21 x_stride=8 y_stride=24 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=253 push_next  # [op 0 CONV_2D] CONV_2D: input rows 0..62 k0
     3: LOAD sp=WGT len=8 sp_addr=1008 ext_addr=0x1e40 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles out c8 k0.. (resident)
     4: LOAD sp=VEC len=8 sp_addr=98 ext_addr=0x2040 x_size=30 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: requantization parameters out c8.. (resident)
     5: LOAD sp=ACT len=8 sp_addr=66 ext_addr=0x1f8 x_size=1 y_size=1 x_stride=8 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=253  # [op 0 CONV_2D] CONV_2D: input rows 63..63 k0
     6: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=1016 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c0 k0..7
     7: LOAD sp=WGT len=8 sp_addr=1000 ext_addr=0x1e80 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next push_next  # [op 0 CONV_2D] CONV_2D: weight tiles out c16 k0.. (resident)
     8: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=512 wgt=1008 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c8 k0..7
     9: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=92 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c0
    10: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x200 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c0
    11: LOAD sp=WGT len=8 sp_addr=992 ext_addr=0x1ec0 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next push_next  # [op 0 CONV_2D] CONV_2D: weight tiles out c24 k0.. (resident)
    12: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=1000 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c16 k0..7
    13: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=98 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c8
    14: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0x208 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c8
    15: LOAD sp=WGT len=8 sp_addr=984 ext_addr=0x1f00 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next push_next  # [op 0 CONV_2D] CONV_2D: weight tiles out c32 k0.. (resident)
    16: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=512 wgt=992 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c24 k0..7
    17: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=104 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c16
    18: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x210 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c16
    19: LOAD sp=WGT len=8 sp_addr=976 ext_addr=0x1f40 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next push_next  # [op 0 CONV_2D] CONV_2D: weight tiles out c40 k0.. (resident)
    20: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=984 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c32 k0..7
    21: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=110 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c24
    22: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0x218 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c24
    23: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 6
    24: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=512 wgt=976 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c40 k0..7
    25: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c32
    26: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x220 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c32
    27: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 7
    28: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=0 wgt=1016 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c0 k0..7
    29: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=122 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c40
    30: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0x228 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c40
    31: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 8
    32: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=1008 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c8 k0..7
    33: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=92 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c0
    34: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xdd0 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c0
    35: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 9
    36: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=0 wgt=1000 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c16 k0..7
    37: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=98 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c8
    38: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0xdd8 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c8
    39: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 10
    40: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=992 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c24 k0..7
    41: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=104 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c16
    42: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xde0 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c16
    43: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 11
    44: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=0 wgt=984 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c32 k0..7
    45: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=110 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c24
    46: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0xde8 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c24
    47: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=976 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c40 k0..7
    48: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c32
    49: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xdf0 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c32
    50: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=122 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c40
    51: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0xdf8 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c40
    52: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x2400 x_size=8 y_size=18 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: filter tiles 0..17
    53: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x2880 x_size=36 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantization parameters c0..
    54: NOP queue=vector push_prev  # [barrier] barrier: wait for the stores the next pass's first loads read
    55: NOP queue=compute pop_next  # [barrier] barrier: the first stores are done
    56: NOP queue=compute pop_next  # [barrier] barrier: the first stores are done
    57: NOP queue=compute pop_next push_prev  # [barrier] barrier: the first stores are done
    58: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
    59: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
    60: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
    61: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x200 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=1 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y0 x0 c0
    62: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    63: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    64: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    65: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    66: NOP queue=load push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y0 x0 c0 (loaded in the barrier)
    67: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x208 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=1 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y0 x0 c8
    68: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=0 acc=0 wgt=0 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c0 filter rows 0..0
    69: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=8 acc=0 wgt=8 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c0 filter rows 1..1
    70: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=16 acc=0 wgt=16 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c0 filter rows 2..2
    71: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c0
    72: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xe00 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c0
    73: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x210 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=1 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y0 x0 c16
    74: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=60 acc=512 wgt=24 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c8 filter rows 0..0
    75: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=68 acc=512 wgt=32 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c8 filter rows 1..1
    76: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=76 acc=512 wgt=40 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c8 filter rows 2..2
    77: VEC func=REQ signed=0 accumulate=0 round=0 dst=3072 src=512 src2=0 param=6 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c8
    78: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0xe08 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c8
    79: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x218 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=1 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y0 x0 c24
    80: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=0 acc=0 wgt=48 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c16 filter rows 0..0
    81: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=8 acc=0 wgt=56 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c16 filter rows 1..1
    82: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=16 acc=0 wgt=64 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c16 filter rows 2..2
    83: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=12 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c16
    84: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xe10 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c16
    85: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x220 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=1 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y0 x0 c32
    86: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=60 acc=512 wgt=72 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c24 filter rows 0..0
    87: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=68 acc=512 wgt=80 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c24 filter rows 1..1
    88: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=76 acc=512 wgt=88 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c24 filter rows 2..2
    89: VEC func=REQ signed=0 accumulate=0 round=0 dst=3072 src=512 src2=0 param=18 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c24
    90: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0xe18 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c24
    91: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x228 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=1 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y0 x0 c40
    92: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=0 acc=0 wgt=96 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c32 filter rows 0..0
    93: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=8 acc=0 wgt=104 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c32 filter rows 1..1
    94: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=16 acc=0 wgt=112 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c32 filter rows 2..2
    95: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=24 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c32
    96: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xe20 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c32
    97: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x680 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=0 pad_bottom=1 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y4 x0 c0
    98: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=60 acc=512 wgt=120 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c40 filter rows 0..0
    99: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=68 acc=512 wgt=128 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c40 filter rows 1..1
   100: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=76 acc=512 wgt=136 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c40 filter rows 2..2
   101: VEC func=REQ signed=0 accumulate=0 round=0 dst=3072 src=512 src2=0 param=30 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c40
   102: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0xe28 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c40
   103: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x688 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=0 pad_bottom=1 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y4 x0 c8
   104: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=0 acc=0 wgt=0 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c0 filter rows 0..0
   105: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=8 acc=0 wgt=8 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c0 filter rows 1..1
   106: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=16 acc=0 wgt=16 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c0 filter rows 2..2
   107: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c0
   108: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1400 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y4 x0 c0
   109: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x690 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=0 pad_bottom=1 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y4 x0 c16
   110: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=60 acc=512 wgt=24 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c8 filter rows 0..0
   111: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=68 acc=512 wgt=32 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c8 filter rows 1..1
   112: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=76 acc=512 wgt=40 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c8 filter rows 2..2
   113: VEC func=REQ signed=0 accumulate=0 round=0 dst=3072 src=512 src2=0 param=6 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c8
   114: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x1408 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y4 x0 c8
   115: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x698 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=0 pad_bottom=1 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y4 x0 c24
   116: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=0 acc=0 wgt=48 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c16 filter rows 0..0
   117: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=8 acc=0 wgt=56 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c16 filter rows 1..1
   118: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=16 acc=0 wgt=64 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c16 filter rows 2..2
   119: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=12 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c16
   120: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1410 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y4 x0 c16
   121: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x6a0 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=0 pad_bottom=1 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y4 x0 c32
   122: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=60 acc=512 wgt=72 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c24 filter rows 0..0
   123: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=68 acc=512 wgt=80 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c24 filter rows 1..1
   124: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=76 acc=512 wgt=88 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c24 filter rows 2..2
   125: VEC func=REQ signed=0 accumulate=0 round=0 dst=3072 src=512 src2=0 param=18 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c24
   126: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x1418 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y4 x0 c24
   127: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x6a8 x_size=8 y_size=6 x_stride=48 y_stride=384 pad_top=0 pad_bottom=1 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input window y4 x0 c40
   128: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=0 acc=0 wgt=96 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c32 filter rows 0..0
   129: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=8 acc=0 wgt=104 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c32 filter rows 1..1
   130: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=16 acc=0 wgt=112 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c32 filter rows 2..2
   131: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=24 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c32
   132: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1420 x_size=8 y_size=4 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y4 x0 c32
   133: DWCONV accumulate=0 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=60 acc=512 wgt=120 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c40 filter rows 0..0
   134: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=68 acc=512 wgt=128 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c40 filter rows 1..1
   135: DWCONV accumulate=1 act_signed=1 wgt_signed=1 fh=1 pad_top=0 act=76 acc=512 wgt=136 za=128 zw=0 nx=8 ny=4 pad_left=1 pad_right=1 act_ys=8 fw=3 pad_bottom=0 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: c40 filter rows 2..2
   136: VEC func=REQ signed=0 accumulate=0 round=0 dst=3072 src=512 src2=0 param=30 nx=8 ny=2 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c40 rows 0..
   137: VEC func=REQ signed=0 accumulate=0 round=0 dst=3088 src=528 src2=0 param=30 nx=8 ny=2 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize c40 rows 2..
   138: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x1428 x_size=8 y_size=2 x_stride=48 y_stride=384 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y4 x0 c40
   139: STORE sp=ACT len=8 sp_addr=3088 ext_addr=0x1728 x_size=8 y_size=2 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y6 x0 c40
   140: LOAD sp=WGT len=8 sp_addr=928 ext_addr=0x2d00 x_size=8 y_size=6 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 CONV_2D] CONV_2D: weight tiles out c0 k0.. (resident)
   141: LOAD sp=VEC len=8 sp_addr=116 ext_addr=0x2e80 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 CONV_2D] CONV_2D: requantization parameters out c0.. (resident)
   142: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the stores the next pass's first loads read
   143: NOP queue=compute pop_next  # [barrier] barrier: the first stores are done
   144: NOP queue=compute pop_next  # [barrier] barrier: the first stores are done
   145: NOP queue=compute pop_next push_prev  # [barrier] barrier: the first stores are done
   146: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
   147: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
   148: NOP queue=load pop_next  # [barrier] barrier: the first stores are done
   149: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0xe00 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k0
   150: LOAD sp=ACT len=8 sp_addr=44 ext_addr=0xe08 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k8
   151: LOAD sp=ACT len=8 sp_addr=88 ext_addr=0xe10 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k16
   152: LOAD sp=ACT len=8 sp_addr=132 ext_addr=0xe18 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k24
   153: LOAD sp=ACT len=8 sp_addr=176 ext_addr=0xe20 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k32
   154: LOAD sp=ACT len=8 sp_addr=220 ext_addr=0xe28 x_size=22 y_size=1 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k40
   155: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   156: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   157: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   158: LOAD sp=ACT len=8 sp_addr=242 ext_addr=0x1248 x_size=22 y_size=1 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k40
   159: LOAD sp=ACT len=8 sp_addr=396 ext_addr=0x1640 x_size=20 y_size=2 x_stride=48 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 44..63 k0..15
   160: LOAD sp=ACT len=8 sp_addr=436 ext_addr=0x1650 x_size=20 y_size=2 x_stride=48 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 44..63 k16..31
   161: LOAD sp=ACT len=8 sp_addr=476 ext_addr=0x1660 x_size=20 y_size=1 x_stride=48 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 44..63 k32..39
   162: LOAD sp=ACT len=8 sp_addr=496 ext_addr=0x1668 x_size=20 y_size=1 x_stride=48 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 2 CONV_2D] CONV_2D: input rows 44..63 k40..47
   163: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=5 act=0 acc=0 wgt=928 za=128 zw=0 nx=22 ny=2 act_xs=1 act_ys=22 acc_xs=1 acc_ys=22 pop_prev push_prev push_next  # [op 2 CONV_2D] CONV_2D: rows 0..43 out c0 k0..47
   164: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=5 act=396 acc=512 wgt=928 za=128 zw=0 nx=20 ny=1 act_xs=1 act_ys=20 acc_xs=1 acc_ys=20 pop_prev push_prev push_next  # [op 2 CONV_2D] CONV_2D: rows 44..63 out c0 k0..47
   165: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=22 ny=2 dst_xs=1 dst_ys=22 src_xs=1 src_ys=22 pop_prev push_prev push_next  # [op 2 CONV_2D] CONV_2D: requantize rows 0.. out c0
   166: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1a00 x_size=22 y_size=2 x_stride=8 y_stride=176 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: output rows 0.. c0
   167: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=116 nx=20 ny=1 dst_xs=1 dst_ys=20 src_xs=1 src_ys=20 pop_prev push_prev push_next  # [op 2 CONV_2D] CONV_2D: requantize rows 44.. out c0
   168: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0x1b60 x_size=20 y_size=1 x_stride=8 y_stride=0 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: output rows 44.. c0
   169: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x2f40 x_size=11 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 ADD] ADD: parameters
   170: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
   171: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   172: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   173: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   174: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   175: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   176: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   177: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   178: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1a00 x_size=64 y_size=1 x_stride=8 y_stride=512 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 ADD] ADD: input 0 bytes 0
   179: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x0 x_size=64 y_size=1 x_stride=8 y_stride=512 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 ADD] ADD: input 1 bytes 0
   180: NOP queue=compute pop_prev push_next  # [op 3 ADD] pass the load token to the vector queue
   181: VEC func=ADDQ signed=1 accumulate=0 round=0 dst=0 src=0 src2=2048 param=0 nx=64 ny=1 dst_xs=1 dst_ys=64 src_xs=1 src_ys=64 pop_prev push_next  # [op 3 ADD] ADD
   182: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x1c00 x_size=64 y_size=1 x_stride=8 y_stride=512 pop_prev push_prev  # [op 3 ADD] ADD: output bytes 0
   183: NOP queue=vector pop_next push_prev  # [op 3 ADD] serial stage: the stores are done
   184: NOP queue=compute pop_next push_prev  # [op 3 ADD] serial stage: release the load queue
   185: FINISH  # end of segment
