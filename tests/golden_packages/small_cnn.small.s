; nnaccel program package: model small_cnn, configuration small

; segment 0: operations 0 CONV_2D, 1 MAX_POOL_2D, 2 AVERAGE_POOL_2D, 3 LOGISTIC, 4 RESHAPE, 5 FULLY_CONNECTED
     0: LOAD sp=ACT len=0 sp_addr=0 ext_addr=0x0 x_size=64 y_size=1 x_stride=0 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: padded input: pad value
     1: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
     2: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
     3: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
     4: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x450 x_size=63 y_size=1 x_stride=8 y_stride=504 pop_prev  # [op 0 CONV_2D] CONV_2D: padded input: fill output bytes 0
     5: STORE sp=ACT len=3 sp_addr=63 ext_addr=0x648 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 0 CONV_2D] CONV_2D: padded input: fill output bytes 0 (tail)
     6: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x0 x_size=4 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: padded input: input rows
     7: LOAD sp=ACT len=4 sp_addr=1072 ext_addr=0x20 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: padded input: input rows
     8: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
     9: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    10: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    11: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    12: NOP queue=load push_next  # [op 0 CONV_2D] no load
    13: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    14: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
    15: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    16: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x450 x_size=4 y_size=12 x_stride=8 y_stride=39 pop_prev  # [op 0 CONV_2D] CONV_2D: padded input: input rows
    17: STORE sp=ACT len=4 sp_addr=1072 ext_addr=0x470 x_size=1 y_size=12 x_stride=8 y_stride=39 push_prev  # [op 0 CONV_2D] CONV_2D: padded input: input rows
    18: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    19: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    20: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    21: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    22: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x450 x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: im2col strips
    23: LOAD sp=ACT len=1 sp_addr=13 ext_addr=0x458 x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    24: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x456 x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: im2col strips
    25: LOAD sp=ACT len=1 sp_addr=1037 ext_addr=0x45e x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    26: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    27: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
    28: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    29: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x650 x_size=1 y_size=13 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    30: STORE sp=ACT len=1 sp_addr=13 ext_addr=0x658 x_size=1 y_size=13 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    31: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x45c x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    32: LOAD sp=ACT len=1 sp_addr=2061 ext_addr=0x464 x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    33: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    34: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
    35: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    36: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x6c5 x_size=1 y_size=13 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    37: STORE sp=ACT len=1 sp_addr=1037 ext_addr=0x6cd x_size=1 y_size=13 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    38: LOAD sp=ACT len=8 sp_addr=3072 ext_addr=0x462 x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    39: LOAD sp=ACT len=1 sp_addr=3085 ext_addr=0x46a x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    40: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    41: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    42: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    43: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x73a x_size=1 y_size=13 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    44: STORE sp=ACT len=1 sp_addr=2061 ext_addr=0x742 x_size=1 y_size=13 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    45: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x468 x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    46: LOAD sp=ACT len=1 sp_addr=13 ext_addr=0x470 x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    47: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    48: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    49: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    50: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x7af x_size=1 y_size=13 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    51: STORE sp=ACT len=1 sp_addr=3085 ext_addr=0x7b7 x_size=1 y_size=13 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    52: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x46e x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    53: LOAD sp=ACT len=1 sp_addr=1037 ext_addr=0x476 x_size=1 y_size=13 x_stride=8 y_stride=39 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    54: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    55: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    56: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    57: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x824 x_size=1 y_size=13 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    58: STORE sp=ACT len=1 sp_addr=13 ext_addr=0x82c x_size=1 y_size=13 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    59: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    60: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    61: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    62: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x899 x_size=1 y_size=13 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    63: STORE sp=ACT len=1 sp_addr=1037 ext_addr=0x8a1 x_size=1 y_size=13 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    64: LOAD sp=WGT len=8 sp_addr=960 ext_addr=0xa20 x_size=8 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles (resident)
    65: LOAD sp=VEC len=8 sp_addr=116 ext_addr=0xc20 x_size=12 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters
    66: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    67: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    68: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    69: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    70: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    71: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    72: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x650 x_size=6 y_size=6 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..35 k0
    73: LOAD sp=ACT len=8 sp_addr=36 ext_addr=0x658 x_size=6 y_size=6 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..35 k8
    74: LOAD sp=ACT len=8 sp_addr=72 ext_addr=0x660 x_size=6 y_size=6 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..35 k16
    75: LOAD sp=ACT len=3 sp_addr=108 ext_addr=0x668 x_size=6 y_size=6 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: input rows 0..35 k24
    76: NOP queue=load push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 1
    77: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=0 wgt=960 za=120 zw=128 nx=6 ny=6 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..35 out c0 k0..31
    78: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=512 wgt=992 za=120 zw=128 nx=6 ny=6 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..35 out c8 k0..31
    79: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=6 ny=6 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c0
    80: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c0
    81: VEC func=REQ signed=0 accumulate=0 round=0 dst=2084 src=512 src2=0 param=122 nx=6 ny=6 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c8
    82: STORE sp=ACT len=2 sp_addr=2084 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c8
    83: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xda0 x_size=4 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: parameters
    84: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    85: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    86: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    87: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    88: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    89: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    90: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    91: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    92: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c0
    93: LOAD sp=ACT len=2 sp_addr=36 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c8
    94: NOP queue=compute pop_prev push_next  # [op 1 MAX_POOL_2D] pass the load token to the vector queue
    95: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c0
    96: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=1 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c0
    97: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=6 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c0
    98: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=7 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c0
    99: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2048 src=2048 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c0
   100: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2057 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c8
   101: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=37 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c8
   102: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=42 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c8
   103: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=43 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c8
   104: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2057 src=2057 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c8
   105: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x320 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c0
   106: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x328 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c8
   107: NOP queue=vector pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: the stores are done
   108: NOP queue=compute pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: release the load queue
   109: NOP queue=vector push_prev  # [barrier] barrier: wait for the layer's stores
   110: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   111: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   112: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   113: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xe20 x_size=15 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: parameters
   114: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x320 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c0
   115: LOAD sp=ACT len=2 sp_addr=25 ext_addr=0x328 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0 push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c8
   116: NOP queue=compute pop_prev push_next  # [op 2 AVERAGE_POOL_2D] pass the load token to the vector queue
   117: VEC func=SUMW signed=0 accumulate=0 round=0 dst=0 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c0
   118: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=1 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c0
   119: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=2 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c0
   120: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=5 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c0
   121: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=6 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c0
   122: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=7 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c0
   123: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=10 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c0
   124: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=11 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c0
   125: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=12 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c0
   126: VEC func=DIV signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   127: VEC func=DIV signed=0 accumulate=0 round=0 dst=2049 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   128: VEC func=DIV signed=0 accumulate=0 round=0 dst=2050 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   129: VEC func=DIV signed=0 accumulate=0 round=0 dst=2051 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   130: VEC func=DIV signed=0 accumulate=0 round=0 dst=2052 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c0
   131: VEC func=DIV signed=0 accumulate=0 round=0 dst=2053 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   132: VEC func=DIV signed=0 accumulate=0 round=0 dst=2054 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   133: VEC func=DIV signed=0 accumulate=0 round=0 dst=2055 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   134: VEC func=DIV signed=0 accumulate=0 round=0 dst=2056 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   135: VEC func=SUMW signed=0 accumulate=0 round=0 dst=0 src=25 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c8
   136: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=26 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c8
   137: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=27 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c8
   138: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=30 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c8
   139: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=31 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c8
   140: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=32 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c8
   141: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=35 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c8
   142: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c8
   143: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=37 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c8
   144: VEC func=DIV signed=0 accumulate=0 round=0 dst=2057 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   145: VEC func=DIV signed=0 accumulate=0 round=0 dst=2058 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   146: VEC func=DIV signed=0 accumulate=0 round=0 dst=2059 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   147: VEC func=DIV signed=0 accumulate=0 round=0 dst=2060 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   148: VEC func=DIV signed=0 accumulate=0 round=0 dst=2061 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c8
   149: VEC func=DIV signed=0 accumulate=0 round=0 dst=2062 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   150: VEC func=DIV signed=0 accumulate=0 round=0 dst=2063 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   151: VEC func=DIV signed=0 accumulate=0 round=0 dst=2064 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   152: VEC func=DIV signed=0 accumulate=0 round=0 dst=2065 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_prev push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   153: NOP queue=compute pop_next push_prev  # [op 2 AVERAGE_POOL_2D] input buffer read: release it to the load queue
   154: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x380 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c0
   155: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x388 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c8
   156: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   157: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   158: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   159: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   160: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x1000 x_size=32 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: lookup table
   161: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x380 x_size=11 y_size=1 x_stride=8 y_stride=88 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0
   162: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x3d8 x_size=1 y_size=1 x_stride=8 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0 (tail)
   163: NOP queue=compute pop_prev push_next  # [op 3 LOGISTIC] pass the load token to the vector queue
   164: VEC func=LUT signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=12 ny=1 dst_xs=1 dst_ys=12 src_xs=1 src_ys=12 pop_prev push_prev push_next  # [op 3 LOGISTIC] LOGISTIC
   165: NOP queue=compute pop_next push_prev  # [op 3 LOGISTIC] input buffer read: release it to the load queue
   166: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x3e0 x_size=11 y_size=1 x_stride=8 y_stride=88 pop_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0
   167: STORE sp=ACT len=2 sp_addr=2059 ext_addr=0x438 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0 (tail)
   168: LOAD sp=WGT len=8 sp_addr=832 ext_addr=0x1400 x_size=8 y_size=12 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles (resident)
   169: LOAD sp=VEC len=8 sp_addr=116 ext_addr=0x1700 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
   170: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   171: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   172: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   173: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   174: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x3e0 x_size=1 y_size=11 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k0..23
   175: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x438 x_size=1 y_size=1 x_stride=90 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k88
   176: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=11 act=0 acc=0 wgt=832 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..0 out c0 k0..95
   177: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
   178: STORE sp=ACT len=5 sp_addr=2048 ext_addr=0x440 x_size=1 y_size=1 x_stride=5 y_stride=0 pop_prev push_prev  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
   179: FINISH  # end of segment
