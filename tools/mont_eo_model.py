#!/usr/bin/env python3
"""A model of the device's even/odd Montgomery code (field/mont.hpp), instruction for instruction,
with PTX carry semantics: every addc without .cc asserts that it loses no carry.
  * sqr_mont_eo: the square and the Montgomery result for Fp (12 limbs) and Fr (8 limbs) on random
    and extreme inputs below the modulus, and the square alone on all-ones limbs;
  * mul_wide and mul_add_wide (product_row into one pair of arrays): any limbs, one or two products;
  * mul_fp2 (Karatsuba with the products wide, two reductions) and mul_sub_fp2 (a·b − c·d in Fp2,
    two reductions) through lift_wide and redc_wide.
Run: python3 tools/mont_eo_model.py"""
import random

p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
r_fr = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
M32 = (1<<32)-1
class CPU:
    def __init__(s): s.cf = 0
    def mad_lo_cc(s, acc, a, b):  # acc + lo(a*b), sets cf
        t = acc + ((a*b) & M32); s.cf = t >> 32; return t & M32
    def madc_lo_cc(s, acc, a, b):
        t = acc + ((a*b) & M32) + s.cf; s.cf = t >> 32; return t & M32
    def madc_hi_cc(s, acc, a, b):
        t = acc + ((a*b) >> 32) + s.cf; s.cf = t >> 32; return t & M32
    def mad_hi_cc(s, acc, a, b):
        t = acc + ((a*b) >> 32); s.cf = t >> 32; return t & M32
    def add_cc(s, a, b):
        t = a + b; s.cf = t >> 32; return t & M32
    def addc_cc(s, a, b):
        t = a + b + s.cf; s.cf = t >> 32; return t & M32
    phase = "square"
    def addc(s, a, b):  # carry out lost: must not overflow
        t = a + b + s.cf; assert t >> 32 == 0, "lost carry in " + s.phase; return t
def limbs(v, n): return [(v >> (32*i)) & M32 for i in range(n)]
def val(l): return sum(x << (32*i) for i, x in enumerate(l))

def redc_rows(c, T, P, n):
    """redc_wide: the low half reduced by even/odd rows, then the high half added; returns < P."""
    pm = limbs(P, n)
    m0 = (-pow(P, -1, 1<<32)) % (1<<32)
    c.phase = "reduction"
    E = T[:n] + [0]; O = [0]*n
    for i in range(n):
        m = (E[0]*m0) & M32
        E[0] = c.mad_lo_cc(E[0], pm[0], m); E[1] = c.madc_hi_cc(E[1], pm[0], m)
        for k in range(2, n, 2):
            E[k] = c.madc_lo_cc(E[k], pm[k], m); E[k+1] = c.madc_hi_cc(E[k+1], pm[k], m)
        E[n] = c.addc(E[n], 0)
        assert E[0] == 0
        for k in range(1, n, 2):
            O[k-1] = (pm[k]*m) & M32; O[k] = (pm[k]*m) >> 32
        E[0] = c.add_cc(E[1], O[0])
        for k in range(1, n-1): E[k] = c.addc_cc(E[k+1], O[k])
        E[n-1] = c.addc(E[n], O[n-1]); E[n] = 0
    E[0] = c.add_cc(E[0], T[n])
    for k in range(1, n-1): E[k] = c.addc_cc(E[k], T[n+k])
    E[n-1] = c.addc(E[n-1], T[2*n-1])
    v = val(E[:n])
    assert v < 2*P
    return v - P if v >= P else v

def sqr_eo(xv, P, n):
    x = limbs(xv, n); c = CPU()
    pm = limbs(P, n)
    m0 = (-pow(P, -1, 1<<32)) % (1<<32)
    Od = [0]*(2*n); Ev = [0]*(2*n)
    for i in range(n-1):
        # odd chain: j = i+1, i+3, ...
        j = i+1
        Od[i+j] = c.mad_lo_cc(Od[i+j], x[i], x[j]); Od[i+j+1] = c.madc_hi_cc(Od[i+j+1], x[i], x[j])
        j += 2
        while j < n:
            Od[i+j] = c.madc_lo_cc(Od[i+j], x[i], x[j]); Od[i+j+1] = c.madc_hi_cc(Od[i+j+1], x[i], x[j]); j += 2
        Od[i+j] = c.addc(Od[i+j], 0)   # j is now jlast+2; position i+jlast+2
        if i + 2 < n:
            j = i+2
            Ev[i+j] = c.mad_lo_cc(Ev[i+j], x[i], x[j]); Ev[i+j+1] = c.madc_hi_cc(Ev[i+j+1], x[i], x[j])
            j += 2
            while j < n:
                Ev[i+j] = c.madc_lo_cc(Ev[i+j], x[i], x[j]); Ev[i+j+1] = c.madc_hi_cc(Ev[i+j+1], x[i], x[j]); j += 2
            Ev[i+j] = c.addc(Ev[i+j], 0)
    # T (in Ev) = Od + Ev, positions 1..2n-1 (Ev[1] = 0, Ev[0] = 0)
    T = Ev
    T[1] = Od[1]
    T[2] = c.add_cc(T[2], Od[2])
    for k in range(3, 2*n-1): T[k] = c.addc_cc(T[k], Od[k])
    T[2*n-1] = c.addc(T[2*n-1], Od[2*n-1])
    # double
    T[1] = c.add_cc(T[1], T[1])
    for k in range(2, 2*n-1): T[k] = c.addc_cc(T[k], T[k])
    T[2*n-1] = c.addc(T[2*n-1], T[2*n-1])
    # diagonal
    T[0] = c.mad_lo_cc(T[0], x[0], x[0]); T[1] = c.madc_hi_cc(T[1], x[0], x[0])
    for i in range(1, n):
        T[2*i] = c.madc_lo_cc(T[2*i], x[i], x[i])
        if i < n-1: T[2*i+1] = c.madc_hi_cc(T[2*i+1], x[i], x[i])
        else:
            hi = (x[i]*x[i]) >> 32; t = T[2*i+1] + hi + c.cf; assert t >> 32 == 0; T[2*i+1] = t
    assert val(T) == xv*xv, "square"
    c.phase = "reduction"
    v = redc_rows(c, T, P, n)
    R = 1 << (32*n)
    assert v == xv*xv*pow(R, -1, P) % P, "mont"
    return v

for P, n in ((p, 12), (r_fr, 8)):
    tests = [0, 1, 2, P-1, P-2, (1<<(32*n-1)) % P, P//2] + [random.randrange(P) for _ in range(20000)]
    # limb-extreme values below P
    for k in range(n):
        tests.append(((1 << (32*(k+1))) - 1) % P)
    for t in tests: sqr_eo(t, P, n)
    print("ok", n, len(tests))

# The square part alone holds for any limbs (the reduction needs x < P).
for P, n in ((p, 12), (r_fr, 8)):
    x = [M32] * n
    try:
        sqr_eo(val(x), P, n)
    except AssertionError as e:
        assert str(e) == "lost carry in reduction", e  # the reduction's bound, x >= P
print("model ok")

# mul_wide (one pair) and mul_add_wide (two pairs), rows interleaved into one Ev/Od pair.
def chain(c, A, x, y, i, j0, n):
    j = j0
    A[i+j] = c.mad_lo_cc(A[i+j], x[i], y[j]); A[i+j+1] = c.madc_hi_cc(A[i+j+1], x[i], y[j]); j += 2
    while j < n:
        A[i+j] = c.madc_lo_cc(A[i+j], x[i], y[j]); A[i+j+1] = c.madc_hi_cc(A[i+j+1], x[i], y[j]); j += 2
    A[i+j] = c.addc(A[i+j], 0)
def dot_wide(pairs, n):
    c = CPU()
    Ev = [0]*(2*n+1); Od = [0]*(2*n+1)
    for i in range(n):
        for (xv, yv) in pairs:
            x = limbs(xv, n); y = limbs(yv, n)
            chain(c, Ev if i % 2 == 0 else Od, x, y, i, 0, n)
            chain(c, Od if i % 2 == 0 else Ev, x, y, i, 1, n)
    T = [0]*(2*n); T[0] = Ev[0]
    T[1] = c.add_cc(Ev[1], Od[1])
    for k in range(2, 2*n-1): T[k] = c.addc_cc(Ev[k], Od[k])
    T[2*n-1] = c.addc(Ev[2*n-1], Od[2*n-1])
    assert val(T) == sum(a*b for a, b in pairs)
for n, P in ((12, p), (8, r_fr)):
    M = (1 << (32*n)) - 1
    for k in (1, 2, 3):
        # worst-case limbs, but keeping the total below 2^(64n)
        big = (1 << (32*n - 1)) - 1
        tests = [[(big, big)] * 2] + [[(random.randrange(P), random.randrange(P)) for _ in range(k)] for _ in range(5000)]
        tests += [[(P-1, P-1)] * k]
        for t in tests: dot_wide(t, n)
    print("wide ok", n)

# mul_fp2 through redc_wide.
n = 12; R = 1 << 384; W = 1 << 768
def redc(T):  # the redc_wide instruction sequence
    return redc_rows(CPU(), limbs(T, 2*n), p, n)
Rinv = pow(R, -1, p)
def lift(v):  # lift_wide: v in (−pR, pR) held mod 2^768; add pR when the top bit is set
    v %= W
    if v >> 767: v = (v + p * R) % W
    return v
def mul_sub_fp2(a0, a1, b0, b1, c0, c1, d0, d1):
    X = (a0 + a1) * (b0 + b1); Y = a0 * b0; X -= Y
    U = a1 * b1; X -= U; Y -= U
    U = (c0 + c1) * (d0 + d1); X -= U
    U = c0 * d0; X += U; Y -= U
    U = c1 * d1; X += U; Y += U
    Y, X = lift(Y), lift(X)
    assert Y < p * R and X < p * R
    return redc(Y), redc(X)
def mul_fp2(a0, a1, b0, b1):
    T2 = (a0 + a1) * (b0 + b1)
    T0 = a0 * b0
    T2 -= T0
    T1 = a1 * b1
    T2 -= T1; assert 0 <= T2 < W
    T0 = lift(T0 - T1)
    assert T0 < p * R and T2 < p * R
    return redc(T0), redc(T2)
tests = [(p-1,)*4, (0,0,0,0), (0, p-1, 0, p-1), (p-1, 0, 0, p-1)] + [tuple(random.randrange(p) for _ in range(4)) for _ in range(20000)]
for a0, a1, b0, b1 in tests:
    c0, c1 = mul_fp2(a0, a1, b0, b1)
    assert c0 == (a0*b0 - a1*b1) * Rinv % p and c1 == (a0*b1 + a1*b0) * Rinv % p
print("fp2 ok", len(tests))
tests8 = [(p-1,)*8, (0,)*8, (0, p-1, 0, p-1, p-1, 0, p-1, 0), (p-1, 0, 0, p-1, 0, p-1, p-1, 0)]
tests8 += [tuple(random.randrange(p) for _ in range(8)) for _ in range(20000)]
for a0, a1, b0, b1, c0, c1, d0, d1 in tests8:
    r0, r1 = mul_sub_fp2(a0, a1, b0, b1, c0, c1, d0, d1)
    assert r0 == (a0*b0 - a1*b1 - c0*d0 + c1*d1) * Rinv % p
    assert r1 == (a0*b1 + a1*b0 - c0*d1 - c1*d0) * Rinv % p
print("fp2 mul_sub ok", len(tests8))
