; nnaccel program package: model small_cnn, configuration small

; segment 0: operations 0 CONV_2D, 1 MAX_POOL_2D, 2 AVERAGE_POOL_2D, 3 LOGISTIC, 4 RESHAPE, 5 FULLY_CONNECTED
     0: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x450 x_size=8 y_size=18 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles 0..17
     1: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x8d0 x_size=12 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters
     2: LOAD sp=ACT len=3 sp_addr=0 ext_addr=0x0 x_size=5 y_size=13 x_stride=3 y_stride=36 pad_top=0 pad_bottom=1 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: input tile n0 y0 x0 c0
     3: LOAD sp=ACT len=3 sp_addr=65 ext_addr=0xc x_size=5 y_size=13 x_stride=3 y_stride=36 pad_top=0 pad_bottom=1 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: input tile n0 y0 x2 c0
     4: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=0 act=0 acc=0 wgt=0 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 pop_prev  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
     5: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=1 acc=0 wgt=8 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,1) in c0
     6: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=2 acc=0 wgt=16 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,2) in c0
     7: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=5 acc=0 wgt=24 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,0) in c0
     8: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=6 acc=0 wgt=32 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,1) in c0
     9: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=7 acc=0 wgt=40 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,2) in c0
    10: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=10 acc=0 wgt=48 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,0) in c0
    11: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=11 acc=0 wgt=56 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,1) in c0
    12: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=12 acc=0 wgt=64 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 push_next  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,2) in c0
    13: VEC func=REQ signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=2 ny=6 dst_xs=1 dst_ys=2 src_xs=1 src_ys=2 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c0
    14: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=0 act=0 acc=512 wgt=72 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,0) in c0
    15: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=1 acc=512 wgt=80 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,1) in c0
    16: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=2 acc=512 wgt=88 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,2) in c0
    17: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=5 acc=512 wgt=96 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,0) in c0
    18: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=6 acc=512 wgt=104 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,1) in c0
    19: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=7 acc=512 wgt=112 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,2) in c0
    20: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=10 acc=512 wgt=120 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,0) in c0
    21: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=11 acc=512 wgt=128 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,1) in c0
    22: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=12 acc=512 wgt=136 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 push_prev push_next  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,2) in c0
    23: VEC func=REQ signed=0 accumulate=0 dst=2060 src=512 src2=0 param=6 nx=2 ny=6 dst_xs=1 dst_ys=2 src_xs=1 src_ys=2 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize out c8
    24: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1b0 x_size=2 y_size=6 x_stride=10 y_stride=60 pop_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c0
    25: STORE sp=ACT len=2 sp_addr=2060 ext_addr=0x1b8 x_size=2 y_size=6 x_stride=10 y_stride=60 push_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c8
    26: LOAD sp=ACT len=3 sp_addr=0 ext_addr=0x18 x_size=5 y_size=13 x_stride=3 y_stride=36 pad_top=0 pad_bottom=1 pad_left=0 pad_right=1 fill=120 pop_next push_next  # [op 0 CONV_2D] CONV_2D: input tile n0 y0 x4 c0
    27: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=0 act=65 acc=0 wgt=0 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 pop_prev pop_next  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
    28: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=66 acc=0 wgt=8 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,1) in c0
    29: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=67 acc=0 wgt=16 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,2) in c0
    30: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=70 acc=0 wgt=24 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,0) in c0
    31: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=71 acc=0 wgt=32 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,1) in c0
    32: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=72 acc=0 wgt=40 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,2) in c0
    33: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=75 acc=0 wgt=48 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,0) in c0
    34: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=76 acc=0 wgt=56 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,1) in c0
    35: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=77 acc=0 wgt=64 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 push_next  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,2) in c0
    36: VEC func=REQ signed=0 accumulate=0 dst=2072 src=0 src2=0 param=0 nx=2 ny=6 dst_xs=1 dst_ys=2 src_xs=1 src_ys=2 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c0
    37: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=0 act=65 acc=512 wgt=72 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 pop_next  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,0) in c0
    38: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=66 acc=512 wgt=80 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,1) in c0
    39: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=67 acc=512 wgt=88 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,2) in c0
    40: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=70 acc=512 wgt=96 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,0) in c0
    41: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=71 acc=512 wgt=104 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,1) in c0
    42: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=72 acc=512 wgt=112 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,2) in c0
    43: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=75 acc=512 wgt=120 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,0) in c0
    44: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=76 acc=512 wgt=128 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,1) in c0
    45: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=77 acc=512 wgt=136 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 push_prev push_next  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,2) in c0
    46: VEC func=REQ signed=0 accumulate=0 dst=2084 src=512 src2=0 param=6 nx=2 ny=6 dst_xs=1 dst_ys=2 src_xs=1 src_ys=2 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize out c8
    47: STORE sp=ACT len=8 sp_addr=2072 ext_addr=0x1c4 x_size=2 y_size=6 x_stride=10 y_stride=60 pop_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x2 c0
    48: STORE sp=ACT len=2 sp_addr=2084 ext_addr=0x1cc x_size=2 y_size=6 x_stride=10 y_stride=60 push_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x2 c8
    49: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=0 act=0 acc=0 wgt=0 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 pop_prev pop_next  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
    50: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=1 acc=0 wgt=8 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,1) in c0
    51: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=2 acc=0 wgt=16 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,2) in c0
    52: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=5 acc=0 wgt=24 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,0) in c0
    53: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=6 acc=0 wgt=32 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,1) in c0
    54: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=7 acc=0 wgt=40 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,2) in c0
    55: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=10 acc=0 wgt=48 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,0) in c0
    56: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=11 acc=0 wgt=56 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,1) in c0
    57: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=12 acc=0 wgt=64 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 push_next  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,2) in c0
    58: VEC func=REQ signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=2 ny=6 dst_xs=1 dst_ys=2 src_xs=1 src_ys=2 pop_prev pop_next push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c0
    59: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=0 act=0 acc=512 wgt=72 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 pop_next  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,0) in c0
    60: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=1 acc=512 wgt=80 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,1) in c0
    61: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=2 acc=512 wgt=88 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,2) in c0
    62: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=5 acc=512 wgt=96 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,0) in c0
    63: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=6 acc=512 wgt=104 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,1) in c0
    64: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=7 acc=512 wgt=112 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,2) in c0
    65: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=10 acc=512 wgt=120 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,0) in c0
    66: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=11 acc=512 wgt=128 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,1) in c0
    67: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=12 acc=512 wgt=136 za=120 zw=128 nx=2 ny=6 act_xs=2 act_ys=10 acc_xs=1 acc_ys=2 push_prev push_next  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,2) in c0
    68: VEC func=REQ signed=0 accumulate=0 dst=2060 src=512 src2=0 param=6 nx=2 ny=6 dst_xs=1 dst_ys=2 src_xs=1 src_ys=2 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize out c8
    69: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1d8 x_size=2 y_size=6 x_stride=10 y_stride=60 pop_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x4 c0
    70: STORE sp=ACT len=2 sp_addr=2060 ext_addr=0x1e0 x_size=2 y_size=6 x_stride=10 y_stride=60 push_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x4 c8
    71: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    72: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    73: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    74: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    75: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    76: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    77: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    78: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    79: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xa50 x_size=4 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: parameters
    80: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c0
    81: LOAD sp=ACT len=2 sp_addr=36 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c8
    82: NOP queue=compute pop_prev push_next  # [op 1 MAX_POOL_2D] pass the load token to the vector queue
    83: VEC func=CLAMP signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c0
    84: VEC func=MAX signed=0 accumulate=0 dst=2048 src=1 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c0
    85: VEC func=MAX signed=0 accumulate=0 dst=2048 src=6 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c0
    86: VEC func=MAX signed=0 accumulate=0 dst=2048 src=7 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c0
    87: VEC func=CLAMP signed=0 accumulate=0 dst=2048 src=2048 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c0
    88: VEC func=CLAMP signed=0 accumulate=0 dst=2057 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c8
    89: VEC func=MAX signed=0 accumulate=0 dst=2057 src=37 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c8
    90: VEC func=MAX signed=0 accumulate=0 dst=2057 src=42 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c8
    91: VEC func=MAX signed=0 accumulate=0 dst=2057 src=43 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c8
    92: VEC func=CLAMP signed=0 accumulate=0 dst=2057 src=2057 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c8
    93: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x320 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c0
    94: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x328 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c8
    95: NOP queue=vector pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: the stores are done
    96: NOP queue=compute pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: release the load queue
    97: NOP queue=vector push_prev  # [barrier] barrier: wait for the layer's stores
    98: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    99: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   100: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   101: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xad0 x_size=15 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: parameters
   102: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x320 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c0
   103: LOAD sp=ACT len=2 sp_addr=25 ext_addr=0x328 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0 push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c8
   104: NOP queue=compute pop_prev push_next  # [op 2 AVERAGE_POOL_2D] pass the load token to the vector queue
   105: VEC func=SUMW signed=0 accumulate=0 dst=0 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c0
   106: VEC func=SUMW signed=0 accumulate=1 dst=0 src=1 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c0
   107: VEC func=SUMW signed=0 accumulate=1 dst=0 src=2 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c0
   108: VEC func=SUMW signed=0 accumulate=1 dst=0 src=5 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c0
   109: VEC func=SUMW signed=0 accumulate=1 dst=0 src=6 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c0
   110: VEC func=SUMW signed=0 accumulate=1 dst=0 src=7 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c0
   111: VEC func=SUMW signed=0 accumulate=1 dst=0 src=10 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c0
   112: VEC func=SUMW signed=0 accumulate=1 dst=0 src=11 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c0
   113: VEC func=SUMW signed=0 accumulate=1 dst=0 src=12 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c0
   114: VEC func=DIV signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   115: VEC func=DIV signed=0 accumulate=0 dst=2049 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   116: VEC func=DIV signed=0 accumulate=0 dst=2050 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   117: VEC func=DIV signed=0 accumulate=0 dst=2051 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   118: VEC func=DIV signed=0 accumulate=0 dst=2052 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c0
   119: VEC func=DIV signed=0 accumulate=0 dst=2053 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   120: VEC func=DIV signed=0 accumulate=0 dst=2054 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   121: VEC func=DIV signed=0 accumulate=0 dst=2055 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   122: VEC func=DIV signed=0 accumulate=0 dst=2056 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   123: VEC func=SUMW signed=0 accumulate=0 dst=0 src=25 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c8
   124: VEC func=SUMW signed=0 accumulate=1 dst=0 src=26 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c8
   125: VEC func=SUMW signed=0 accumulate=1 dst=0 src=27 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c8
   126: VEC func=SUMW signed=0 accumulate=1 dst=0 src=30 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c8
   127: VEC func=SUMW signed=0 accumulate=1 dst=0 src=31 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c8
   128: VEC func=SUMW signed=0 accumulate=1 dst=0 src=32 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c8
   129: VEC func=SUMW signed=0 accumulate=1 dst=0 src=35 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c8
   130: VEC func=SUMW signed=0 accumulate=1 dst=0 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c8
   131: VEC func=SUMW signed=0 accumulate=1 dst=0 src=37 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c8
   132: VEC func=DIV signed=0 accumulate=0 dst=2057 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   133: VEC func=DIV signed=0 accumulate=0 dst=2058 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   134: VEC func=DIV signed=0 accumulate=0 dst=2059 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   135: VEC func=DIV signed=0 accumulate=0 dst=2060 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   136: VEC func=DIV signed=0 accumulate=0 dst=2061 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c8
   137: VEC func=DIV signed=0 accumulate=0 dst=2062 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   138: VEC func=DIV signed=0 accumulate=0 dst=2063 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   139: VEC func=DIV signed=0 accumulate=0 dst=2064 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   140: VEC func=DIV signed=0 accumulate=0 dst=2065 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_prev push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   141: NOP queue=compute pop_next push_prev  # [op 2 AVERAGE_POOL_2D] input buffer read: release it to the load queue
   142: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x380 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c0
   143: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x388 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c8
   144: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   145: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   146: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   147: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   148: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xcb0 x_size=32 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: lookup table
   149: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x380 x_size=11 y_size=1 x_stride=8 y_stride=88 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0
   150: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x3d8 x_size=1 y_size=1 x_stride=8 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0 (tail)
   151: NOP queue=compute pop_prev push_next  # [op 3 LOGISTIC] pass the load token to the vector queue
   152: VEC func=LUT signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=12 ny=1 dst_xs=1 dst_ys=12 src_xs=1 src_ys=12 pop_prev push_prev push_next  # [op 3 LOGISTIC] LOGISTIC
   153: NOP queue=compute pop_next push_prev  # [op 3 LOGISTIC] input buffer read: release it to the load queue
   154: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x3e0 x_size=11 y_size=1 x_stride=8 y_stride=88 pop_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0
   155: STORE sp=ACT len=2 sp_addr=2059 ext_addr=0x438 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0 (tail)
   156: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   157: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   158: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   159: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   160: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x10b0 x_size=8 y_size=12 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles (resident)
   161: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x13b0 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
   162: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x3e0 x_size=1 y_size=3 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k0..23
   163: LOAD sp=ACT len=8 sp_addr=3 ext_addr=0x3f8 x_size=1 y_size=3 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k24..47
   164: LOAD sp=ACT len=8 sp_addr=6 ext_addr=0x410 x_size=1 y_size=3 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k48..71
   165: LOAD sp=ACT len=8 sp_addr=9 ext_addr=0x428 x_size=1 y_size=2 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k72..87
   166: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x438 x_size=1 y_size=1 x_stride=90 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k88
   167: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=11 act=0 acc=0 wgt=0 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..0 out c0 k0..95
   168: VEC func=REQ signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
   169: STORE sp=ACT len=5 sp_addr=2048 ext_addr=0x440 x_size=1 y_size=1 x_stride=5 y_stride=0 pop_prev push_prev  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
   170: FINISH  # end of segment
