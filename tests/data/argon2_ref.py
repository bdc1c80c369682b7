"""Argon2 (version 0x13) in pure Python, written from RFC 9106 sections 3.1-3.6,
for check_vectors.py: an implementation that shares no code with the libraries
cryptobench measures, and that takes the secret K and associated data X.
Slow (a few seconds for 1 MiB); the vector files use 32 KiB.
"""
import hashlib

M64 = (1 << 64) - 1
TYPES = {'argon2d': 0, 'argon2i': 1, 'argon2id': 2}


def le32(n):
    return n.to_bytes(4, 'little')


def h_prime(x, t):
    """H'^T(X), RFC 9106 section 3.3."""
    if t <= 64:
        return hashlib.blake2b(le32(t) + x, digest_size=t).digest()
    r = (t + 31) // 32 - 2
    v = hashlib.blake2b(le32(t) + x).digest()
    out = v[:32]
    for _ in range(r - 1):
        v = hashlib.blake2b(v).digest()
        out += v[:32]
    return out + hashlib.blake2b(v, digest_size=t - 32 * r).digest()


def gb(v, a, b, c, d):
    """GB of RFC 9106 section 3.6 on words a, b, c, d of v."""
    def fbla(x, y):
        return (x + y + 2 * (x & 0xffffffff) * (y & 0xffffffff)) & M64

    def rotr(x, n):
        return ((x >> n) | (x << (64 - n))) & M64
    v[a] = fbla(v[a], v[b]); v[d] = rotr(v[d] ^ v[a], 32)
    v[c] = fbla(v[c], v[d]); v[b] = rotr(v[b] ^ v[c], 24)
    v[a] = fbla(v[a], v[b]); v[d] = rotr(v[d] ^ v[a], 16)
    v[c] = fbla(v[c], v[d]); v[b] = rotr(v[b] ^ v[c], 63)


def perm(v, idx):
    """P on the 16 words v[idx[0]], ..., v[idx[15]] (section 3.6)."""
    w = [v[i] for i in idx]
    for a, b, c, d in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                       (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
        gb(w, a, b, c, d)
    for i, x in zip(idx, w):
        v[i] = x


ROWS = [list(range(16 * i, 16 * i + 16)) for i in range(8)]
COLS = [[2 * j + 16 * k + e for k in range(8) for e in (0, 1)] for j in range(8)]


def g(x, y):
    """The compression function G (section 3.5) on blocks of 128 words."""
    r = [a ^ b for a, b in zip(x, y)]
    q = list(r)
    for idx in ROWS:
        perm(q, idx)
    for idx in COLS:
        perm(q, idx)
    return [a ^ b for a, b in zip(q, r)]


def words(b):
    return [int.from_bytes(b[i:i + 8], 'little') for i in range(0, 1024, 8)]


def ref_index(j1, pas, sl, idx, seg, q, same):
    """The reference block's column in its lane (section 3.4.2)."""
    if pas == 0:
        area = sl * seg + idx - 1 if same else sl * seg - (idx == 0)
        start = 0
    else:
        area = q - seg + idx - 1 if same else q - seg - (idx == 0)
        start = 0 if sl == 3 else (sl + 1) * seg
    x = j1 * j1 >> 32
    return (start + area - 1 - (area * x >> 32)) % q


def fill_segment(B, ctx, pas, sl, lane):
    p, q, mp, t, y = ctx
    seg = q // 4
    indep = y == 1 or (y == 2 and pas == 0 and sl < 2)
    zero, addr, ctr = [0] * 128, None, 0
    first = 2 if pas == 0 and sl == 0 else 0
    for i in range(first, seg):
        col = sl * seg + i
        prev = B[lane][(col - 1) % q]
        if indep:
            if addr is None or i % 128 == 0:
                ctr += 1
                z = [pas, lane, sl, mp, t, y, ctr] + [0] * 121
                addr = g(zero, g(zero, z))
            rnd = addr[i % 128]
        else:
            rnd = prev[0]
        j1, l2 = rnd & 0xffffffff, (rnd >> 32) % p
        if pas == 0 and sl == 0:
            l2 = lane
        ref = B[l2][ref_index(j1, pas, sl, i, seg, q, l2 == lane)]
        new = g(prev, ref)
        if pas > 0:
            new = [a ^ b for a, b in zip(new, B[lane][col])]
        B[lane][col] = new


def argon2(kind, password, salt, t, m, p, tag_len, secret=b'', ad=b''):
    """The tag of RFC 9106 section 3.2 (version 0x13)."""
    y = TYPES[kind]
    h0 = hashlib.blake2b(b''.join(le32(n) for n in (p, tag_len, m, t, 0x13, y)) +
                         le32(len(password)) + password + le32(len(salt)) + salt +
                         le32(len(secret)) + secret + le32(len(ad)) + ad).digest()
    mp = 4 * p * (m // (4 * p))
    q = mp // p
    B = [[None] * q for _ in range(p)]
    for lane in range(p):
        for c in (0, 1):
            B[lane][c] = words(h_prime(h0 + le32(c) + le32(lane), 1024))
    for pas in range(t):
        for sl in range(4):
            for lane in range(p):
                fill_segment(B, (p, q, mp, t, y), pas, sl, lane)
    c = [0] * 128
    for lane in range(p):
        c = [a ^ b for a, b in zip(c, B[lane][q - 1])]
    return h_prime(b''.join(w.to_bytes(8, 'little') for w in c), tag_len)
