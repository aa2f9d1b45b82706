; nnaccel program package: model mobilenet_block_8x8x8, configuration small

; segment 0: operations 0 CONV_2D, 1 DEPTHWISE_CONV_2D, 2 CONV_2D, 3 ADD
     0: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x1e00 x_size=8 y_size=6 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles 0..5
     1: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x1f80 x_size=36 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters
     2: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x0 x_size=4 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=253 push_next  # [op 0 CONV_2D] CONV_2D: input tile n0 y0 x0 c0
     3: LOAD sp=ACT len=8 sp_addr=32 ext_addr=0x20 x_size=4 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=253 push_next  # [op 0 CONV_2D] CONV_2D: input tile n0 y0 x4 c0
     4: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=0 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_prev push_next  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
     5: VEC func=REQ signed=0 accumulate=0 dst=64 src=0 src2=0 param=0 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c0
     6: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=8 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_next  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,0) in c0
     7: VEC func=REQ signed=0 accumulate=0 dst=96 src=0 src2=0 param=6 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c8
     8: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=16 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_next  # [op 0 CONV_2D] CONV_2D: out c16 tap (0,0) in c0
     9: VEC func=REQ signed=0 accumulate=0 dst=128 src=0 src2=0 param=12 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c16
    10: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=24 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_next  # [op 0 CONV_2D] CONV_2D: out c24 tap (0,0) in c0
    11: VEC func=REQ signed=0 accumulate=0 dst=160 src=0 src2=0 param=18 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c24
    12: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=32 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_next  # [op 0 CONV_2D] CONV_2D: out c32 tap (0,0) in c0
    13: VEC func=REQ signed=0 accumulate=0 dst=192 src=0 src2=0 param=24 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c32
    14: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=40 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: out c40 tap (0,0) in c0
    15: VEC func=REQ signed=0 accumulate=0 dst=224 src=0 src2=0 param=30 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize out c40
    16: STORE sp=ACT len=8 sp_addr=64 ext_addr=0x200 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c0
    17: STORE sp=ACT len=8 sp_addr=96 ext_addr=0x208 x_size=4 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c8
    18: STORE sp=ACT len=8 sp_addr=128 ext_addr=0x210 x_size=4 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c16
    19: STORE sp=ACT len=8 sp_addr=160 ext_addr=0x218 x_size=4 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c24
    20: STORE sp=ACT len=8 sp_addr=192 ext_addr=0x220 x_size=4 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c32
    21: STORE sp=ACT len=8 sp_addr=224 ext_addr=0x228 x_size=4 y_size=8 x_stride=48 y_stride=384 push_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c40
    22: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=32 acc=0 wgt=0 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_prev pop_next push_next  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
    23: VEC func=REQ signed=0 accumulate=0 dst=256 src=0 src2=0 param=0 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c0
    24: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=32 acc=0 wgt=8 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_next  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,0) in c0
    25: VEC func=REQ signed=0 accumulate=0 dst=288 src=0 src2=0 param=6 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c8
    26: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=32 acc=0 wgt=16 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_next  # [op 0 CONV_2D] CONV_2D: out c16 tap (0,0) in c0
    27: VEC func=REQ signed=0 accumulate=0 dst=320 src=0 src2=0 param=12 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c16
    28: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=32 acc=0 wgt=24 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_next  # [op 0 CONV_2D] CONV_2D: out c24 tap (0,0) in c0
    29: VEC func=REQ signed=0 accumulate=0 dst=352 src=0 src2=0 param=18 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c24
    30: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=32 acc=0 wgt=32 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_next  # [op 0 CONV_2D] CONV_2D: out c32 tap (0,0) in c0
    31: VEC func=REQ signed=0 accumulate=0 dst=384 src=0 src2=0 param=24 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c32
    32: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=32 acc=0 wgt=40 za=253 zw=0 nx=4 ny=8 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: out c40 tap (0,0) in c0
    33: VEC func=REQ signed=0 accumulate=0 dst=416 src=0 src2=0 param=30 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize out c40
    34: STORE sp=ACT len=8 sp_addr=256 ext_addr=0x2c0 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x4 c0
    35: STORE sp=ACT len=8 sp_addr=288 ext_addr=0x2c8 x_size=4 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x4 c8
    36: STORE sp=ACT len=8 sp_addr=320 ext_addr=0x2d0 x_size=4 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x4 c16
    37: STORE sp=ACT len=8 sp_addr=352 ext_addr=0x2d8 x_size=4 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x4 c24
    38: STORE sp=ACT len=8 sp_addr=384 ext_addr=0x2e0 x_size=4 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x4 c32
    39: STORE sp=ACT len=8 sp_addr=416 ext_addr=0x2e8 x_size=4 y_size=8 x_stride=48 y_stride=384 push_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x4 c40
    40: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    41: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    42: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    43: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    44: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    45: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    46: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    47: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x2400 x_size=8 y_size=54 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: weight tiles 0..53
    48: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x3180 x_size=36 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantization parameters
    49: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x200 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128 push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c0
    50: LOAD sp=ACT len=8 sp_addr=100 ext_addr=0x208 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128 push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c8
    51: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=0 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,0) in c0
    52: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=0 wgt=8 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,1) in c0
    53: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=0 wgt=16 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,2) in c0
    54: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=10 acc=0 wgt=24 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,0) in c0
    55: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=11 acc=0 wgt=32 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,1) in c0
    56: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=12 acc=0 wgt=40 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,2) in c0
    57: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=20 acc=0 wgt=48 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,0) in c0
    58: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=21 acc=0 wgt=56 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,1) in c0
    59: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=22 acc=0 wgt=64 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,2) in c0
    60: NOP queue=vector push_next  # [op 1 DEPTHWISE_CONV_2D] no vector work
    61: NOP queue=store pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] no store
    62: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x210 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c16
    63: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=100 acc=64 wgt=72 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,0) in c8
    64: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=101 acc=64 wgt=80 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,1) in c8
    65: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=102 acc=64 wgt=88 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,2) in c8
    66: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=110 acc=64 wgt=96 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,0) in c8
    67: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=111 acc=64 wgt=104 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,1) in c8
    68: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=112 acc=64 wgt=112 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,2) in c8
    69: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=120 acc=64 wgt=120 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,0) in c8
    70: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=121 acc=64 wgt=128 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,1) in c8
    71: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=122 acc=64 wgt=136 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,2) in c8
    72: NOP queue=vector push_next  # [op 1 DEPTHWISE_CONV_2D] no vector work
    73: NOP queue=store pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] no store
    74: LOAD sp=ACT len=8 sp_addr=100 ext_addr=0x218 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c24
    75: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=128 wgt=144 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,0) in c16
    76: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=128 wgt=152 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,1) in c16
    77: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=128 wgt=160 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,2) in c16
    78: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=10 acc=128 wgt=168 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,0) in c16
    79: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=11 acc=128 wgt=176 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,1) in c16
    80: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=12 acc=128 wgt=184 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,2) in c16
    81: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=20 acc=128 wgt=192 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,0) in c16
    82: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=21 acc=128 wgt=200 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,1) in c16
    83: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=22 acc=128 wgt=208 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,2) in c16
    84: NOP queue=vector pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] no vector work
    85: NOP queue=store pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] no store
    86: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x220 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c32
    87: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=100 acc=192 wgt=216 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,0) in c24
    88: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=101 acc=192 wgt=224 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,1) in c24
    89: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=102 acc=192 wgt=232 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,2) in c24
    90: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=110 acc=192 wgt=240 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,0) in c24
    91: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=111 acc=192 wgt=248 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,1) in c24
    92: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=112 acc=192 wgt=256 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,2) in c24
    93: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=120 acc=192 wgt=264 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,0) in c24
    94: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=121 acc=192 wgt=272 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,1) in c24
    95: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=122 acc=192 wgt=280 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,2) in c24
    96: NOP queue=vector pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] no vector work
    97: NOP queue=store pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] no store
    98: LOAD sp=ACT len=8 sp_addr=100 ext_addr=0x228 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c40
    99: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=256 wgt=288 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,0) in c32
   100: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=256 wgt=296 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,1) in c32
   101: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=256 wgt=304 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,2) in c32
   102: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=10 acc=256 wgt=312 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,0) in c32
   103: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=11 acc=256 wgt=320 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,1) in c32
   104: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=12 acc=256 wgt=328 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,2) in c32
   105: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=20 acc=256 wgt=336 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,0) in c32
   106: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=21 acc=256 wgt=344 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,1) in c32
   107: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=22 acc=256 wgt=352 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,2) in c32
   108: NOP queue=vector pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] no vector work
   109: NOP queue=store pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] no store
   110: NOP queue=compute pop_prev push_next  # [op 1 DEPTHWISE_CONV_2D] order the next VECs after the GEMMs before
   111: VEC func=REQ signed=0 accumulate=0 dst=584 src=0 src2=0 param=0 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c0
   112: VEC func=REQ signed=0 accumulate=0 dst=648 src=64 src2=0 param=6 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c8
   113: VEC func=REQ signed=0 accumulate=0 dst=712 src=128 src2=0 param=12 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c16
   114: VEC func=REQ signed=0 accumulate=0 dst=776 src=192 src2=0 param=18 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c24
   115: VEC func=REQ signed=0 accumulate=0 dst=840 src=256 src2=0 param=24 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c32
   116: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=100 acc=320 wgt=360 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,0) in c40
   117: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=101 acc=320 wgt=368 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,1) in c40
   118: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=102 acc=320 wgt=376 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,2) in c40
   119: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=110 acc=320 wgt=384 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,0) in c40
   120: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=111 acc=320 wgt=392 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,1) in c40
   121: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=112 acc=320 wgt=400 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,2) in c40
   122: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=120 acc=320 wgt=408 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,0) in c40
   123: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=121 acc=320 wgt=416 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,1) in c40
   124: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=122 acc=320 wgt=424 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,2) in c40
   125: VEC func=REQ signed=0 accumulate=0 dst=904 src=320 src2=0 param=30 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c40
   126: STORE sp=ACT len=8 sp_addr=584 ext_addr=0xe00 x_size=8 y_size=8 x_stride=48 y_stride=384 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c0
   127: STORE sp=ACT len=8 sp_addr=648 ext_addr=0xe08 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c8
   128: STORE sp=ACT len=8 sp_addr=712 ext_addr=0xe10 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c16
   129: STORE sp=ACT len=8 sp_addr=776 ext_addr=0xe18 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c24
   130: STORE sp=ACT len=8 sp_addr=840 ext_addr=0xe20 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c32
   131: STORE sp=ACT len=8 sp_addr=904 ext_addr=0xe28 x_size=8 y_size=8 x_stride=48 y_stride=384 push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c40
   132: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
   133: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   134: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   135: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   136: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   137: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   138: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   139: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x3600 x_size=8 y_size=6 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 CONV_2D] CONV_2D: weight tiles 0..5
   140: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x3780 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 CONV_2D] CONV_2D: requantization parameters
   141: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0xe00 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c0
   142: LOAD sp=ACT len=8 sp_addr=64 ext_addr=0xe08 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c8
   143: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=0 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
   144: NOP queue=vector push_next  # [op 2 CONV_2D] no vector work
   145: NOP queue=store pop_prev push_prev  # [op 2 CONV_2D] no store
   146: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0xe10 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c16
   147: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=64 acc=0 wgt=8 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c8
   148: NOP queue=vector push_next  # [op 2 CONV_2D] no vector work
   149: NOP queue=store pop_prev push_prev  # [op 2 CONV_2D] no store
   150: LOAD sp=ACT len=8 sp_addr=64 ext_addr=0xe18 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c24
   151: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=16 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c16
   152: NOP queue=vector pop_next push_next  # [op 2 CONV_2D] no vector work
   153: NOP queue=store pop_prev push_prev  # [op 2 CONV_2D] no store
   154: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0xe20 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c32
   155: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=64 acc=0 wgt=24 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c24
   156: NOP queue=vector pop_next push_next  # [op 2 CONV_2D] no vector work
   157: NOP queue=store pop_prev push_prev  # [op 2 CONV_2D] no store
   158: LOAD sp=ACT len=8 sp_addr=64 ext_addr=0xe28 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c40
   159: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=32 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c32
   160: NOP queue=vector pop_next push_next  # [op 2 CONV_2D] no vector work
   161: NOP queue=store pop_prev push_prev  # [op 2 CONV_2D] no store
   162: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=64 acc=0 wgt=40 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev push_prev push_next  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c40
   163: VEC func=REQ signed=0 accumulate=0 dst=192 src=0 src2=0 param=0 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev pop_next push_prev push_next  # [op 2 CONV_2D] CONV_2D: requantize out c0
   164: STORE sp=ACT len=8 sp_addr=192 ext_addr=0x1a00 x_size=8 y_size=8 x_stride=8 y_stride=64 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: output tile n0 y0 x0 c0
   165: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
   166: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   167: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   168: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   169: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   170: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   171: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   172: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x3840 x_size=11 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 ADD] ADD: parameters
   173: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1a00 x_size=64 y_size=1 x_stride=8 y_stride=512 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 ADD] ADD: input 0 bytes 0
   174: LOAD sp=ACT len=8 sp_addr=1364 ext_addr=0x0 x_size=64 y_size=1 x_stride=8 y_stride=512 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 ADD] ADD: input 1 bytes 0
   175: NOP queue=compute pop_prev push_next  # [op 3 ADD] pass the load token to the vector queue
   176: VEC func=ADDQ signed=1 accumulate=0 dst=2728 src=0 src2=1364 param=0 nx=64 ny=1 dst_xs=1 dst_ys=64 src_xs=1 src_ys=64 pop_prev push_prev push_next  # [op 3 ADD] ADD
   177: NOP queue=compute pop_next push_prev  # [op 3 ADD] input buffer read: release it to the load queue
   178: STORE sp=ACT len=8 sp_addr=2728 ext_addr=0x1c00 x_size=64 y_size=1 x_stride=8 y_stride=512 pop_prev push_prev  # [op 3 ADD] ADD: output bytes 0
   179: FINISH  # end of segment
