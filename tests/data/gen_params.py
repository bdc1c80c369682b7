#!/usr/bin/python3
"""Generate tests/data/params.vec: known-answer records at the edges of every
algorithm's parameter range, computed by code independent of cryptobench's C.

  gcm(aes)                    truncated tags (4, 8, 12..16 bytes), 128/192/256-bit
                              keys, AAD and text lengths around the block size
  rfc4106(gcm(aes))           tags 4, 8, 12..16 (RFC 4106 allows 8, 12, 16: the
                              kernel refuses the others), assoc 16 and 20 bytes
  rfc7539(chacha20,poly1305)  AAD 0..255 bytes x texts 0..1000 bytes
  pbkdf2(hmac(...))           empty salt/password, passwords longer than the HMAC
                              block, dkLen 1, digest-1 .. 3*digest+5, c = 1..1000
  chacha20                    the 32-bit block counter wrapping (RFC 8439: modulo
                              2^32, the nonce unchanged)
  ctr(aes)                    the 128-bit big-endian counter wrapping its low 32,
                              64 and all 128 bits
  xts(aes)                    ciphertext stealing, 2x128 and 2x256-bit keys
  hmac(sha1|sha256|sha512)    keys of 0, 1, block-1, block, block+1, 2*block+1 bytes,
                              messages around the padding edges
  argon2i, argon2id           1..4 lanes, memory at 8*lanes KiB and just above it,
                              tags of 4..100 bytes (BLAKE2b's H' path), salt 8/100,
                              a secret and associated data, an empty password

Computed with python3-cryptography (OpenSSL) for AES-GCM, AES-CTR, AES-XTS and
ChaCha20-Poly1305; Python's hashlib/hmac for HMAC and PBKDF2 (RIPEMD-160 also
by check_vectors.py's pure-Python RIPEMD-160); tests/data/argon2_ref.py for
Argon2; and, for the chacha20 records, a ChaCha20 block function written
from RFC 8439 section 2.3 (check_vectors.py's chacha20_py, beside its
RIPEMD-160), because python3-cryptography (OpenSSL) carries the block
counter into the nonce where RFC 8439 and the Linux kernel wrap it modulo
2^32.  Every chacha20 record is cross-checked against python3-cryptography:
in one call where the counter does not wrap, in two calls split at the wrap
(the second from counter 0) where it does.  Each record's source names what
computed it.

Deterministic: a fixed seed drives every key, IV, message and choice, so
re-running reproduces the file byte for byte (for the same python3-cryptography
version, which the sources name).

Usage: gen_params.py [OUTDIR]     (default: the directory of this script)
Verify with: check_vectors.py tests/data/params.vec
"""

import hashlib
import hmac
import os
import random
import struct
import sys
import warnings

warnings.filterwarnings('ignore')

import cryptography  # noqa: E402
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import argon2_ref  # noqa: E402
import check_vectors  # noqa: E402  (its pure-Python RIPEMD-160 and ChaCha20)
from check_vectors import chacha20_py as chacha20_rfc8439  # noqa: E402

SEED = 0x706172616d73  # "params"
CRYPTO = 'python3-cryptography %s' % cryptography.__version__
SRC_LIB = 'random edge, ' + CRYPTO
SRC_HASHLIB = 'random edge, hashlib'
SRC_ARGON = 'random edge, argon2_ref.py'
SRC_CHACHA = 'random edge, chacha20 from RFC 8439 section 2.3, pure Python'


# ------------------------------------------------------------------ helpers
def run(alg, mode, data):
    e = Cipher(alg, mode).encryptor()
    return e.update(data) + e.finalize()


def pbkdf2(name, password, salt, c, dklen):
    """hashlib's PBKDF2; RIPEMD-160 by check_vectors.py's pure-Python
    RIPEMD-160 in hmac, and by hashlib too where OpenSSL 3 still has
    ripemd160 (the two must agree)."""
    if name != 'rmd160':
        return hashlib.pbkdf2_hmac(name, password, salt, c, dklen)
    mine = check_vectors.pbkdf2_rmd160_py(password, salt, c, dklen)
    if check_vectors.HAVE_OPENSSL_RMD:
        assert mine == hashlib.pbkdf2_hmac('ripemd160', password, salt, c, dklen), \
            'PBKDF2-HMAC-RIPEMD160 implementations disagree'
    return mine


def flip_bit(b, rng):
    b = bytearray(b)
    pos = rng.randrange(8 * len(b))
    b[pos // 8] ^= 1 << (pos % 8)
    return bytes(b)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    check_vectors.selftest()      # RIPEMD-160, ChaCha20 (RFC 8439 2.3.2, 2.4.2)
    rng = random.Random(SEED)
    rb = rng.randbytes
    recs = []        # (comment or None, record dict)

    def add(comment=None, **kw):
        recs.append((comment, kw))

    # 1. gcm(aes), truncated tags: each tag length with every key size and a
    # cross-section of AAD x text lengths (the first 49 cover the whole 7 x 7).
    tags = (4, 8, 12, 13, 14, 15, 16)
    aads = (0, 1, 16, 17, 20, 64, 255)
    texts = (0, 1, 15, 16, 17, 64, 1500)
    gcm = []
    n = 0
    for ti, t in enumerate(tags):
        for kl in (16, 24, 32):
            for _ in range(3):
                al, pl = aads[n % 7], texts[(n // 7 + n) % 7]
                key, iv, ad, pt = rb(kl), rb(12), rb(al), rb(pl)
                sealed = AESGCM(key).encrypt(iv, pt, ad)
                r = dict(alg='gcm(aes)', key=key, iv=iv, assoc=ad, pt=pt, ct=sealed[:-16],
                         tag=sealed[-16:][:t], source=SRC_LIB)
                if t < 16:
                    r['tlen'] = str(t)
                gcm.append(r)
                add('# gcm(aes): tags of 4, 8, 12..16 bytes (the first bytes of the 16-byte tag),\n'
                    '# 128/192/256-bit keys, AAD and text lengths across the 16-byte block.'
                    if n == 0 else None, **r)
                n += 1
    # negatives: one tag bit flipped, truncated tags
    first = True
    for t in (4, 8, 12, 13, 15):
        r = dict(next(x for x in gcm if len(x['tag']) == t and len(x['pt']) > 0))
        r['tag'] = flip_bit(r['tag'], rng)
        r['expect'] = 'fail'
        r['source'] = SRC_LIB + ', one tag bit flipped'
        add('# gcm(aes) negatives: a truncated tag with one bit flipped must be rejected.'
            if first else None, **r)
        first = False

    # 2. rfc4106(gcm(aes)): the kernel's convention (docs/vectors.md)
    first = True
    n = 0
    for t in tags:
        for al in (16, 20):
            kl = (16, 24, 32)[n % 3]
            key, salt, iv = rb(kl), rb(4), rb(8)
            esp = rb(al - 8)                     # SPI || seq (|| seq_hi)
            pt = rb((0, 1, 16, 17, 64, 100, 1400)[n % 7])
            sealed = AESGCM(key).encrypt(salt + iv, pt, esp)
            r = dict(alg='rfc4106(gcm(aes))', key=key + salt, iv=iv, assoc=esp + iv, pt=pt,
                     ct=sealed[:-16], tag=sealed[-16:][:t], source=SRC_LIB)
            if t < 16:
                r['tlen'] = str(t)
            add('# rfc4106(gcm(aes)): key = AES key || 4-byte salt, nonce = salt || iv; assoc =\n'
                '# SPI || seq (8 or 12 bytes) || the 8-byte IV, which is not authenticated.  Tags\n'
                '# of 4, 8, 12..16 bytes: RFC 4106 allows 8, 12 and 16 only, and the kernel\n'
                '# refuses the others (a skip with its reason); the libraries take them.'
                if first else None, **r)
            first = False
            if t in (8, 16) and al == 16:
                neg = dict(r, tag=flip_bit(r['tag'], rng), expect='fail',
                           source=SRC_LIB + ', one tag bit flipped')
                add(None, **neg)
            n += 1

    # 3. rfc7539(chacha20,poly1305): every AAD length x every text length
    first = True
    for al in (0, 1, 12, 15, 16, 17, 64, 255):
        for pl in (0, 1, 63, 64, 65, 1000):
            key, iv, ad, pt = rb(32), rb(12), rb(al), rb(pl)
            sealed = ChaCha20Poly1305(key).encrypt(iv, pt, ad)
            add('# rfc7539(chacha20,poly1305): AAD of 0..255 bytes x texts of 0..1000 bytes\n'
                '# (Poly1305 pads each to 16 bytes; ChaCha20 blocks are 64).' if first else None,
                alg='rfc7539(chacha20,poly1305)', key=key, iv=iv, assoc=ad, pt=pt,
                ct=sealed[:-16], tag=sealed[-16:], source=SRC_LIB)
            first = False
    key, iv, ad, pt = rb(32), rb(12), rb(17), rb(65)
    sealed = ChaCha20Poly1305(key).encrypt(iv, pt, ad)
    add(None, alg='rfc7539(chacha20,poly1305)', key=key, iv=iv, assoc=ad, pt=pt,
        ct=sealed[:-16], tag=flip_bit(sealed[-16:], rng), expect='fail',
        source=SRC_LIB + ', one tag bit flipped')

    # 4. pbkdf2: one parameter at its edge at a time, around a base of an
    # 8-byte password, a 16-byte salt, 2 iterations and dkLen = digest
    first = True
    for h, dl, bl in (('sha1', 20, 64), ('sha256', 32, 64), ('sha512', 64, 128),
                      ('rmd160', 20, 64)):
        alg = 'pbkdf2(hmac(%s))' % h
        src = SRC_HASHLIB if h != 'rmd160' else (
            'random edge, hashlib (ripemd160) and the pure-Python RIPEMD-160 of check_vectors.py'
            if check_vectors.HAVE_OPENSSL_RMD else
            'random edge, the pure-Python RIPEMD-160 of check_vectors.py in hmac')
        cases = [('salt', 0), ('password', 0)]
        cases += [('password', n) for n in (64, 65, 128, 129, 200)]
        cases += [('salt', n) for n in (1, 64, 200)]
        cases += [('dk', n) for n in (1, dl - 1, dl, dl + 1, 3 * dl + 5)]
        cases += [('iterations', n) for n in (1, 2, 3, 1000)]
        for what, v in cases:
            p = {'password': 8, 'salt': 16, 'dk': dl, 'iterations': 2}
            p[what] = v
            password, salt = rb(p['password']), rb(p['salt'])
            dk = pbkdf2(h, password, salt, p['iterations'], p['dk'])
            add('# pbkdf2(hmac(sha1|sha256|sha512|rmd160)): around an 8-byte password, a 16-byte\n'
                '# salt, 2 iterations and dkLen = the digest size, one edge at a time: empty salt\n'
                '# or password, passwords longer than the HMAC block (hashed first), salts of 1,\n'
                '# 64, 200 bytes, dkLen 1, digest-1, digest, digest+1, 3*digest+5 (a partial\n'
                '# last block), 1, 2, 3, 1000 iterations.' if first else None,
                alg=alg, password=password, salt=salt, iterations=str(p['iterations']), dk=dk,
                source=src)
            first = False
        password, salt = rb(bl + 1), rb(16)
        dk = pbkdf2(h, password, salt, 3, 3 * dl + 5)
        add(None, alg=alg, password=password, salt=salt, iterations='3', dk=flip_bit(dk, rng),
            expect='fail', source=src + ', one dk bit flipped')

    # 5. chacha20: the 32-bit block counter at its wrap
    first = True
    for ctr in (0xfffffffe, 0xffffffff):
        for pl in (64, 100, 192, 257):
            key, nonce, pt = rb(32), rb(12), rb(pl)
            iv = struct.pack('<I', ctr) + nonce
            ct = chacha20_rfc8439(key, iv, pt)
            src = SRC_CHACHA
            if ctr + (pl + 63) // 64 <= 1 << 32:     # no wrap: OpenSSL agrees
                assert ct == run(algorithms.ChaCha20(key, iv), None, pt)
                src += ' (no wrap: = %s)' % CRYPTO
            else:   # OpenSSL in one call carries into the nonce; in two, split at the wrap, agrees
                assert ct != run(algorithms.ChaCha20(key, iv), None, pt)
                assert ct == check_vectors.chacha20(key, iv, pt)
                src += ' (= %s in two calls split at the wrap)' % CRYPTO
            add('# chacha20: iv = le32 block counter || 96-bit nonce.  Counters 0xfffffffe and\n'
                '# 0xffffffff: the counter wraps modulo 2^32 to 0 and the nonce stays (RFC 8439\n'
                '# section 2.4, the Linux kernel); OpenSSL carries into the nonce instead, so\n'
                '# these come from a ChaCha20 written here from RFC 8439 section 2.3.'
                if first else None, alg='chacha20', key=key, iv=iv, pt=pt, ct=ct, source=src)
            first = False
    # the carrying semantics must be rejected
    for ctr, pl in ((0xfffffffe, 192), (0xffffffff, 100)):
        key, nonce, pt = rb(32), rb(12), rb(pl)
        iv = struct.pack('<I', ctr) + nonce
        carried = run(algorithms.ChaCha20(key, iv), None, pt)
        assert carried != chacha20_rfc8439(key, iv, pt)
        add('# Negatives: the ciphertext with the counter carried into the nonce (OpenSSL\'s\n'
            '# ChaCha20), which is not RFC 8439\'s: it must be rejected.' if ctr == 0xfffffffe
            else None, alg='chacha20', key=key, iv=iv, pt=pt, ct=carried, expect='fail',
            source='random edge, %s ChaCha20 (counter carried into the nonce)' % CRYPTO)
    # cross-checks of the pure-Python block function against python3-cryptography
    for ctr, pl in ((0, 64), (1, 300), (0x7fffffff, 130), (0xfffffffc, 128)):
        key, nonce, pt = rb(32), rb(12), rb(pl)
        iv = struct.pack('<I', ctr) + nonce
        ct = chacha20_rfc8439(key, iv, pt)
        assert ct == run(algorithms.ChaCha20(key, iv), None, pt)
        add('# No wrap: the pure-Python ChaCha20 and python3-cryptography agree.'
            if ctr == 0 else None, alg='chacha20', key=key, iv=iv, pt=pt, ct=ct,
            source=SRC_CHACHA + ' = ' + CRYPTO)

    # 6. ctr(aes): the 128-bit big-endian counter near its wraps
    first = True
    for kind, ivf in (('low 32 bits', lambda: rb(12) + b'\xff' * 3 + b'\xfe'),
                      ('low 64 bits', lambda: rb(8) + b'\xff' * 7 + b'\xfe'),
                      ('all 128 bits', lambda: b'\xff' * 15 + b'\xfe')):
        for kl in (16, 24, 32):
            for pl in (48, 100):
                key, iv, pt = rb(kl), ivf(), rb(pl)
                r = dict(alg='ctr(aes)', key=key, iv=iv, pt=pt,
                         ct=run(algorithms.AES(key), modes.CTR(iv), pt), source=SRC_LIB)
                if pl % 16 == 0:
                    r['iv_out'] = ((int.from_bytes(iv, 'big') + pl // 16) % (1 << 128)).to_bytes(16, 'big')
                add('# ctr(aes): the counter block is one 128-bit big-endian number; IVs ending\n'
                    '# ff..fe in the low 32, 64 and all 128 bits, so the carry crosses 32- and\n'
                    '# 64-bit words and the whole block wraps to 0 (iv_out: the counter after).'
                    if first else None, **r)
                first = False
    key, iv, pt = rb(32), b'\xff' * 15 + b'\xfe', rb(100)
    add(None, alg='ctr(aes)', key=key, iv=iv, pt=pt,
        ct=flip_bit(run(algorithms.AES(key), modes.CTR(iv), pt), rng), expect='fail',
        source=SRC_LIB + ', one ciphertext bit flipped')

    # 7. xts(aes): ciphertext stealing
    first = True
    for kl in (32, 64):
        for pl in (17, 31, 33, 47, 100, 4111):
            key = rb(kl)
            assert key[:kl // 2] != key[kl // 2:]
            iv, pt = struct.pack('<Q', rng.getrandbits(40)) + bytes(8), rb(pl)
            add('# xts(aes): lengths that are not whole blocks (ciphertext stealing), 2x128 and\n'
                '# 2x256-bit keys; iv = le64(sector) || 0^8.' if first else None,
                alg='xts(aes)', key=key, iv=iv, pt=pt,
                ct=run(algorithms.AES(key), modes.XTS(iv), pt), source=SRC_LIB)
            first = False
    key, iv, pt = rb(64), struct.pack('<Q', 7) + bytes(8), rb(33)
    add(None, alg='xts(aes)', key=key, iv=iv, pt=pt,
        ct=flip_bit(run(algorithms.AES(key), modes.XTS(iv), pt)[:16], rng) +
        run(algorithms.AES(key), modes.XTS(iv), pt)[16:], expect='fail',
        source=SRC_LIB + ', one ciphertext bit flipped')

    # 8. hmac: every key length x every message length
    first = True
    for h, bl in (('sha1', 64), ('sha256', 64), ('sha512', 128)):
        for kl in (0, 1, bl - 1, bl, bl + 1, 2 * bl + 1):
            for ml in (0, 55, 56, 64, 111, 112, 128):
                if (kl + ml) % 3 and ml not in (0, 128):
                    continue    # a cross-section: a third of the middle lengths
                key, msg = rb(kl), rb(ml)
                add('# hmac(sha1|sha256|sha512): keys of 0, 1, block-1, block, block+1 and\n'
                    '# 2*block+1 bytes (longer keys are hashed first), messages around the\n'
                    '# 55/56/64 and 111/112/128-byte padding edges.' if first else None,
                    alg='hmac(%s)' % h, key=key, msg=msg, mac=hmac.new(key, msg, h).digest(),
                    source=SRC_HASHLIB)
                first = False
        key, msg = rb(bl + 1), rb(56)
        add(None, alg='hmac(%s)' % h, key=key, msg=msg,
            mac=flip_bit(hmac.new(key, msg, h).digest(), rng), expect='fail',
            source=SRC_HASHLIB + ', one mac bit flipped')

    # 9. argon2: lanes 1..4, memory 8*lanes, +1, +3; passes, tag and salt lengths
    first = True
    n = 0
    for kind in ('argon2i', 'argon2id'):
        for lanes in (1, 2, 3, 4):
            for extra in (0, 1, 3):
                m, t = 8 * lanes + extra, (1, 2, 3)[n % 3]
                tl, sl = (4, 64, 65, 100)[n % 4], (8, 100)[(n // 4) % 2]
                password, salt = rb(rng.choice((1, 16, 32))), rb(sl)
                add('# argon2i, argon2id (version 0x13): 1..4 lanes, memory at the minimum 8*lanes\n'
                    '# KiB and 8*lanes+1, +3 (rounded down to a multiple of 4*lanes), 1..3 passes,\n'
                    '# tags of 4 (the minimum), 64, 65 and 100 bytes (over 64: the H\' chain),\n'
                    '# salts of 8 (the minimum) and 100 bytes.' if first else None,
                    alg=kind, password=password, salt=salt, iterations=str(t), memory=str(m),
                    lanes=str(lanes), dk=argon2_ref.argon2(kind, password, salt, t, m, lanes, tl),
                    source=SRC_ARGON)
                first = False
                n += 1
    first = True
    for kind in ('argon2i', 'argon2id'):
        password, salt, secret, ad = rb(24), rb(8), rb(32), rb(40)
        add('# With a secret K and associated data X.' if first else None,
            alg=kind, password=password, salt=salt, secret=secret, assoc=ad, iterations='2',
            memory='19', lanes='2',
            dk=argon2_ref.argon2(kind, password, salt, 2, 19, 2, 65, secret, ad), source=SRC_ARGON)
        first = False
    first = True
    for kind in ('argon2i', 'argon2id'):
        salt = rb(16)
        add('# An empty password (RFC 9106 allows it; libgcrypt 1.10 refuses it: a skip).'
            if first else None,
            alg=kind, password=b'', salt=salt, iterations='1', memory='8', lanes='1',
            dk=argon2_ref.argon2(kind, b'', salt, 1, 8, 1, 32), source=SRC_ARGON)
        first = False
    for kind, lanes in (('argon2i', 3), ('argon2id', 2)):
        password, salt = rb(16), rb(8)
        dk = argon2_ref.argon2(kind, password, salt, 2, 8 * lanes + 1, lanes, 100)
        add('# Negatives: one dk bit flipped.' if kind == 'argon2i' else None,
            alg=kind, password=password, salt=salt, iterations='2', memory=str(8 * lanes + 1),
            lanes=str(lanes), dk=flip_bit(dk, rng), expect='fail',
            source=SRC_ARGON + ', one dk bit flipped')

    write(out, recs)


ORDER = ['alg', 'key', 'iv', 'assoc', 'pt', 'ct', 'tag', 'iv_out', 'msg', 'mac', 'tlen',
         'password', 'salt', 'secret', 'iterations', 'memory', 'lanes', 'dk', 'expect',
         'source']


def write(out, recs):
    body = []
    counts = {}
    for comment, r in recs:
        if comment:
            body += comment.split('\n')
        # Argon2's associated data goes after the secret, as in kdf.vec
        order = ORDER if 'password' not in r else \
            ['alg', 'password', 'salt', 'secret', 'assoc'] + ORDER[ORDER.index('iterations'):]
        assert set(r) <= set(order), set(r) - set(order)
        for k in order:
            if k in r:
                v = r[k] if isinstance(r[k], str) else r[k].hex()
                body.append(('%s = %s' % (k, v)).rstrip())
        body.append('')
        c = counts.setdefault(r['alg'], [0, 0])
        c[1 if r.get('expect') else 0] += 1
    body.pop()
    total = sum(a + b for a, b in counts.values())
    negs = sum(b for a, b in counts.values())
    head = [
        '# Known-answer vectors at the edges of every algorithm\'s parameter range: %d records' % total,
        '# (%d negative) generated by tests/data/gen_params.py (seed %#x).  Computed without' % (negs, SEED),
        '# cryptobench\'s C code: %s (AES-GCM, AES-CTR, AES-XTS, ChaCha20-Poly1305),' % CRYPTO,
        '# Python hashlib/hmac (HMAC, PBKDF2; RIPEMD-160 also by check_vectors.py\'s pure Python),',
        '# tests/data/argon2_ref.py (Argon2, pure Python from RFC 9106) and, for chacha20, a block',
        '# function written from RFC 8439 section 2.3 in check_vectors.py (the 32-bit counter wraps',
        '# modulo 2^32 as in RFC 8439 and the kernel; OpenSSL carries it into the nonce).  Each',
        '# record\'s source names what computed it.  Format: docs/vectors.md (rfc4106: the kernel\'s',
        '# key and assoc layout).  Regenerate with tests/data/gen_params.py (byte for byte the same);',
        '# re-check with tests/data/check_vectors.py tests/data/params.vec; run with',
        '# `cryptobench kat tests/data/params.vec` (tests/test_params.sh, tests/kernel/params.part).',
        '# Records by algorithm (positive + negative):',
    ]
    for alg in sorted(counts):
        head.append('#   %-30s %3d + %d' % (alg, counts[alg][0], counts[alg][1]))
    head.append('')
    with open(os.path.join(out, 'params.vec'), 'w') as f:
        f.write('\n'.join(head + body) + '\n')
    print('%d records (%d negative) in %s' % (total, negs, os.path.join(out, 'params.vec')))
    for alg in sorted(counts):
        print('  %-30s %3d + %d' % (alg, counts[alg][0], counts[alg][1]))


if __name__ == '__main__':
    main()
