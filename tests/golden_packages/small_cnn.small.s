; nnaccel program package: model small_cnn, configuration small

; segment 0: operations 0 CONV_2D, 1 MAX_POOL_2D, 2 AVERAGE_POOL_2D, 3 LOGISTIC, 4 RESHAPE, 5 FULLY_CONNECTED
     0: LOAD sp=ACT len=0 sp_addr=0 ext_addr=0x0 x_size=88 y_size=1 x_stride=0 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: strips' pad value
     1: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x0 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: im2col strips
     2: LOAD sp=ACT len=1 sp_addr=1036 ext_addr=0x8 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
     3: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
     4: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
     5: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
     6: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x650 x_size=87 y_size=1 x_stride=8 y_stride=696 pop_prev  # [op 0 CONV_2D] CONV_2D: strips' pad value
     7: STORE sp=ACT len=6 sp_addr=87 ext_addr=0x908 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 0 CONV_2D] CONV_2D: strips' pad value (tail)
     8: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x6 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
     9: LOAD sp=ACT len=1 sp_addr=2060 ext_addr=0xe x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    10: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    11: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
    12: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    13: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x650 x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    14: STORE sp=ACT len=1 sp_addr=1036 ext_addr=0x658 x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    15: LOAD sp=ACT len=8 sp_addr=3072 ext_addr=0xc x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    16: LOAD sp=ACT len=1 sp_addr=3084 ext_addr=0x14 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    17: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    18: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    19: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    20: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x6c5 x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    21: STORE sp=ACT len=1 sp_addr=2060 ext_addr=0x6cd x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    22: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x12 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    23: LOAD sp=ACT len=1 sp_addr=12 ext_addr=0x1a x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    24: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    25: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    26: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    27: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x73a x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    28: STORE sp=ACT len=1 sp_addr=3084 ext_addr=0x742 x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    29: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x18 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    30: LOAD sp=ACT len=1 sp_addr=1036 ext_addr=0x20 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    31: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    32: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    33: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    34: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x7af x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    35: STORE sp=ACT len=1 sp_addr=12 ext_addr=0x7b7 x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    36: LOAD sp=ACT len=6 sp_addr=2048 ext_addr=0x1e x_size=12 y_size=1 x_stride=36 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    37: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    38: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    39: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    40: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x824 x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    41: STORE sp=ACT len=1 sp_addr=1036 ext_addr=0x82c x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    42: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    43: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    44: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    45: STORE sp=ACT len=6 sp_addr=2048 ext_addr=0x899 x_size=12 y_size=1 x_stride=9 y_stride=117 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    46: LOAD sp=WGT len=8 sp_addr=960 ext_addr=0xa20 x_size=8 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles (resident)
    47: LOAD sp=VEC len=8 sp_addr=116 ext_addr=0xc20 x_size=12 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters
    48: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    49: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    50: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    51: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    52: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    53: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    54: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x650 x_size=6 y_size=6 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..35 k0
    55: LOAD sp=ACT len=8 sp_addr=36 ext_addr=0x658 x_size=6 y_size=6 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..35 k8
    56: LOAD sp=ACT len=8 sp_addr=72 ext_addr=0x660 x_size=6 y_size=6 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..35 k16
    57: LOAD sp=ACT len=3 sp_addr=108 ext_addr=0x668 x_size=6 y_size=6 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: input rows 0..35 k24
    58: NOP queue=load push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 1
    59: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=0 wgt=960 za=120 zw=128 nx=6 ny=6 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..35 out c0 k0..31
    60: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=512 wgt=992 za=120 zw=128 nx=6 ny=6 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..35 out c8 k0..31
    61: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=6 ny=6 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c0
    62: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c0
    63: VEC func=REQ signed=0 accumulate=0 round=0 dst=2084 src=512 src2=0 param=122 nx=6 ny=6 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c8
    64: STORE sp=ACT len=2 sp_addr=2084 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c8
    65: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xda0 x_size=4 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: parameters
    66: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    67: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    68: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    69: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    70: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    71: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    72: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    73: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    74: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c0
    75: LOAD sp=ACT len=2 sp_addr=36 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c8
    76: NOP queue=compute pop_prev push_next  # [op 1 MAX_POOL_2D] pass the load token to the vector queue
    77: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c0
    78: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=1 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c0
    79: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=6 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c0
    80: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=7 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c0
    81: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2048 src=2048 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c0
    82: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2057 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c8
    83: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=37 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c8
    84: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=42 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c8
    85: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=43 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c8
    86: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2057 src=2057 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c8
    87: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x320 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c0
    88: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x328 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c8
    89: NOP queue=vector pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: the stores are done
    90: NOP queue=compute pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: release the load queue
    91: NOP queue=vector push_prev  # [barrier] barrier: wait for the layer's stores
    92: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    93: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    94: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    95: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xe20 x_size=15 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: parameters
    96: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x320 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c0
    97: LOAD sp=ACT len=2 sp_addr=25 ext_addr=0x328 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0 push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c8
    98: NOP queue=compute pop_prev push_next  # [op 2 AVERAGE_POOL_2D] pass the load token to the vector queue
    99: VEC func=SUMW signed=0 accumulate=0 round=0 dst=0 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c0
   100: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=1 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c0
   101: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=2 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c0
   102: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=5 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c0
   103: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=6 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c0
   104: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=7 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c0
   105: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=10 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c0
   106: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=11 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c0
   107: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=12 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c0
   108: VEC func=DIV signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   109: VEC func=DIV signed=0 accumulate=0 round=0 dst=2049 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   110: VEC func=DIV signed=0 accumulate=0 round=0 dst=2050 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   111: VEC func=DIV signed=0 accumulate=0 round=0 dst=2051 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   112: VEC func=DIV signed=0 accumulate=0 round=0 dst=2052 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c0
   113: VEC func=DIV signed=0 accumulate=0 round=0 dst=2053 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   114: VEC func=DIV signed=0 accumulate=0 round=0 dst=2054 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   115: VEC func=DIV signed=0 accumulate=0 round=0 dst=2055 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   116: VEC func=DIV signed=0 accumulate=0 round=0 dst=2056 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   117: VEC func=SUMW signed=0 accumulate=0 round=0 dst=0 src=25 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c8
   118: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=26 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c8
   119: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=27 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c8
   120: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=30 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c8
   121: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=31 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c8
   122: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=32 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c8
   123: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=35 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c8
   124: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c8
   125: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=37 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c8
   126: VEC func=DIV signed=0 accumulate=0 round=0 dst=2057 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   127: VEC func=DIV signed=0 accumulate=0 round=0 dst=2058 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   128: VEC func=DIV signed=0 accumulate=0 round=0 dst=2059 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   129: VEC func=DIV signed=0 accumulate=0 round=0 dst=2060 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   130: VEC func=DIV signed=0 accumulate=0 round=0 dst=2061 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c8
   131: VEC func=DIV signed=0 accumulate=0 round=0 dst=2062 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   132: VEC func=DIV signed=0 accumulate=0 round=0 dst=2063 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   133: VEC func=DIV signed=0 accumulate=0 round=0 dst=2064 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   134: VEC func=DIV signed=0 accumulate=0 round=0 dst=2065 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_prev push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   135: NOP queue=compute pop_next push_prev  # [op 2 AVERAGE_POOL_2D] input buffer read: release it to the load queue
   136: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x380 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c0
   137: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x388 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c8
   138: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   139: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   140: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   141: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   142: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x1000 x_size=32 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: lookup table
   143: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x380 x_size=11 y_size=1 x_stride=8 y_stride=88 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0
   144: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x3d8 x_size=1 y_size=1 x_stride=8 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0 (tail)
   145: NOP queue=compute pop_prev push_next  # [op 3 LOGISTIC] pass the load token to the vector queue
   146: VEC func=LUT signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=12 ny=1 dst_xs=1 dst_ys=12 src_xs=1 src_ys=12 pop_prev push_prev push_next  # [op 3 LOGISTIC] LOGISTIC
   147: NOP queue=compute pop_next push_prev  # [op 3 LOGISTIC] input buffer read: release it to the load queue
   148: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x3e0 x_size=11 y_size=1 x_stride=8 y_stride=88 pop_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0
   149: STORE sp=ACT len=2 sp_addr=2059 ext_addr=0x438 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0 (tail)
   150: LOAD sp=WGT len=8 sp_addr=832 ext_addr=0x1400 x_size=8 y_size=12 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles (resident)
   151: LOAD sp=VEC len=8 sp_addr=116 ext_addr=0x1700 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
   152: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   153: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   154: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   155: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   156: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x3e0 x_size=1 y_size=11 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k0..23
   157: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x438 x_size=1 y_size=1 x_stride=90 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k88
   158: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=11 act=0 acc=0 wgt=832 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..0 out c0 k0..95
   159: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
   160: STORE sp=ACT len=5 sp_addr=2048 ext_addr=0x440 x_size=1 y_size=1 x_stride=5 y_stride=0 pop_prev push_prev  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
   161: FINISH  # end of segment
