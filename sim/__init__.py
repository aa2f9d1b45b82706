"""nnaccel.sim"""
