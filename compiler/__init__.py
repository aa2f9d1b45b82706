"""nnaccel.compiler"""
