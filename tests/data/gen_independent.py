#!/usr/bin/python3
"""Generate tests/data/independent.vec and tests/data/independent-flipped.vec.

~40 random known-answer records computed with python3-cryptography (Debian's
OpenSSL-backed package, an implementation independent of cryptobench's C
code) and Python's hashlib/hmac.  Deterministic: a fixed seed drives every
key, IV, length and message, so re-running reproduces the files byte for
byte (for the same python3-cryptography version, which is recorded in each
record's source).

independent-flipped.vec is the same file with ONE ciphertext byte flipped in
exactly one record that is NOT marked expect = fail; a comment at its top and
tests/data/independent-flipped.line give the line number of that record's
first line, so a test can check that `cryptobench kat` reports a failure
exactly there.

Usage: gen_independent.py [OUTDIR]     (default: the directory of this script)
Verify with: check_vectors.py
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

try:
    from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES
except ImportError:  # pragma: no cover
    TripleDES = algorithms.TripleDES

SEED = 0x6372797074  # "crypt"
SOURCE = 'random, python3-cryptography %s' % cryptography.__version__


def run(alg, mode, data):
    e = Cipher(alg, mode).encryptor()
    return e.update(data) + e.finalize()


def essiv_iv(salt_input, iv):
    return run(algorithms.AES(hashlib.sha256(salt_input).digest()), modes.ECB(), iv)


def sector_iv(rng):
    """dm-crypt style input IV: le64(sector) || 0^8."""
    return struct.pack('<Q', rng.getrandbits(40)) + bytes(8)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(SEED)
    rb = rng.randbytes
    recs = []

    def add(**kw):
        kw['source'] = SOURCE
        recs.append(kw)

    # cbc(aes): three per key size, 1..32 blocks
    for kl in (16, 24, 32):
        for _ in range(3):
            key, iv, pt = rb(kl), rb(16), rb(16 * rng.randint(1, 32))
            add(alg='cbc(aes)', key=key, iv=iv, pt=pt, ct=run(algorithms.AES(key), modes.CBC(iv), pt))
    # ecb(aes)
    for kl in (16, 24, 32):
        key, pt = rb(kl), rb(16 * rng.randint(1, 16))
        add(alg='ecb(aes)', key=key, pt=pt, ct=run(algorithms.AES(key), modes.ECB(), pt))
    # ctr(aes): odd lengths, one counter that wraps its low 64 bits
    for kl, iv in ((16, None), (24, None), (32, None), (16, rb(8) + b'\xff' * 7 + b'\xfe')):
        key, iv, pt = rb(kl), iv or rb(16), rb(rng.randint(1, 300))
        add(alg='ctr(aes)', key=key, iv=iv, pt=pt, ct=run(algorithms.AES(key), modes.CTR(iv), pt))
    # xts(aes): 2x128 and 2x256, sector sizes and one ciphertext-stealing length
    for kl, n in ((32, 512), (64, 4096), (32, 16 * 7 + 5), (64, 16 + 9)):
        key = rb(kl)
        assert key[:kl // 2] != key[kl // 2:]
        iv, pt = sector_iv(rng), rb(n)
        add(alg='xts(aes)', key=key, iv=iv, pt=pt, ct=run(algorithms.AES(key), modes.XTS(iv), pt))
    # cbc(camellia)
    for kl in (16, 24, 32):
        key, iv, pt = rb(kl), rb(16), rb(16 * rng.randint(1, 16))
        add(alg='cbc(camellia)', key=key, iv=iv, pt=pt, ct=run(algorithms.Camellia(key), modes.CBC(iv), pt))
    # cbc(des3_ede): three distinct 8-byte keys
    for _ in range(3):
        key = rb(24)
        assert len({key[0:8], key[8:16], key[16:24]}) == 3
        iv, pt = rb(8), rb(8 * rng.randint(1, 32))
        add(alg='cbc(des3_ede)', key=key, iv=iv, pt=pt, ct=run(TripleDES(key), modes.CBC(iv), pt))
    # essiv(cbc(aes),sha256): dm-crypt style sector IVs, 512/4096-byte sectors
    for kl, n in ((16, 512), (24, 512), (32, 4096)):
        key, iv, pt = rb(kl), sector_iv(rng), rb(n)
        add(alg='essiv(cbc(aes),sha256)', key=key, iv=iv, pt=pt,
            ct=run(algorithms.AES(key), modes.CBC(essiv_iv(key, iv)), pt))
    # authenc(hmac(sha256),cbc(aes)): kernel key blob, full 32-byte tag
    for kl, akl in ((16, 32), (24, 20), (32, 64)):
        authkey, enckey = rb(akl), rb(kl)
        blob = bytes.fromhex('08000100') + struct.pack('>I', kl) + authkey + enckey
        iv, assoc, pt = rb(16), rb(rng.choice((8, 16, 24))), rb(16 * rng.randint(1, 8))
        ct = run(algorithms.AES(enckey), modes.CBC(iv), pt)
        add(alg='authenc(hmac(sha256),cbc(aes))', key=blob, iv=iv, assoc=assoc, pt=pt, ct=ct,
            tag=hmac.new(authkey, assoc + ct, 'sha256').digest())
    # sha256: empty, one byte, around the 55/56/64-byte padding edges, long
    for n in (0, 1, 55, 56, 64, 1000):
        msg = rb(n)
        add(alg='sha256', msg=msg, md=hashlib.sha256(msg).digest())
    # hmac(sha512): short, block-size and longer-than-block keys
    for kl, n in ((16, 0), (64, 100), (128, 200), (200, 129)):
        key, msg = rb(kl), rb(n)
        add(alg='hmac(sha512)', key=key, msg=msg, mac=hmac.new(key, msg, 'sha512').digest())

    order = ['alg', 'key', 'iv', 'assoc', 'pt', 'ct', 'tag', 'msg', 'md', 'mac', 'source']

    def render(records):
        body, first = [], []
        for r in records:
            first.append(len(body))
            for k in order:
                if k in r:
                    v = r[k] if isinstance(r[k], str) else r[k].hex()
                    body.append(('%s = %s' % (k, v)).rstrip())
            body.append('')
        body.pop()
        return body, first

    head = [
        '# Independent known-answer vectors: %d random records generated by' % len(recs),
        '# tests/data/gen_independent.py (seed %#x) with python3-cryptography %s' % (SEED, cryptography.__version__),
        '# and Python hashlib/hmac -- code independent of cryptobench.  Format: docs/vectors.md.',
        '# Regenerate with tests/data/gen_independent.py, verify with tests/data/check_vectors.py.',
        '',
    ]
    body, first = render(recs)
    with open(os.path.join(out, 'independent.vec'), 'w') as f:
        f.write('\n'.join(head + body) + '\n')

    # pick one cipher/AEAD record (deterministically) and flip one ciphertext byte
    cands = [i for i, r in enumerate(recs) if 'ct' in r]
    victim = cands[rng.randrange(len(cands))]
    ct = bytearray(recs[victim]['ct'])
    pos = rng.randrange(len(ct))
    ct[pos] ^= 0x01
    flipped = [dict(r) for r in recs]
    flipped[victim]['ct'] = bytes(ct)
    fhead_len = 6
    line = fhead_len + first[victim] + 1
    fhead = [
        '# Same records as independent.vec, but ONE ciphertext byte is flipped (XOR 0x01, byte %d of ct)' % pos,
        '# in the %s record whose first line is line %d of this file.  That record is NOT marked' % (recs[victim]['alg'], line),
        '# expect = fail: `cryptobench kat` must report exactly this record as failing.  Every other record',
        '# must pass.  The line number is also in tests/data/independent-flipped.line.',
        '# Generated by tests/data/gen_independent.py; verify with tests/data/check_vectors.py.',
        '',
    ]
    assert len(fhead) == fhead_len
    fbody, ffirst = render(flipped)
    assert ffirst == first
    with open(os.path.join(out, 'independent-flipped.vec'), 'w') as f:
        f.write('\n'.join(fhead + fbody) + '\n')
    with open(os.path.join(out, 'independent-flipped.line'), 'w') as f:
        f.write('%d\n' % line)
    print('%d records; flipped %s at line %d (ct byte %d)' % (len(recs), recs[victim]['alg'], line, pos))


if __name__ == '__main__':
    main()
