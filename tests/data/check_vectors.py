#!/usr/bin/python3
"""Independent checker for cryptobench known-answer vector files (*.vec).

This is documentation of independence, not part of the C test suite: it
re-verifies every record with implementations that share no code with
cryptobench --

  * ciphers: python3-cryptography (Debian python3-cryptography, OpenSSL-backed)
  * digests/HMAC: Python's hashlib/hmac; RIPEMD-160 additionally with the
    pure-Python reference below (and hashlib's, when OpenSSL still offers it)
  * key derivation: PBKDF2 by hashlib.pbkdf2_hmac (PBKDF2-HMAC-RIPEMD160 by
    hmac on the pure-Python RIPEMD-160 where OpenSSL 3 offers no ripemd160);
    Argon2 by argon2_ref.py, pure Python written from RFC 9106 (it takes the
    secret and the associated data, which Debian 12's python3-argon2 does not)
  * chacha20: the pure-Python ChaCha20 below (RFC 8439 section 2.3), whose
    32-bit block counter wraps modulo 2^32 with the nonce unchanged, as RFC
    8439 and the kernel's; cross-checked against python3-cryptography run
    piecewise, one call before the wrap and one from counter 0 after it
    (OpenSSL itself would carry the counter into the nonce)
  * AEAD tags truncated (tlen): the first tlen bytes of the full tag, and
    GCM opened with python3-cryptography's min_tag_length
  * geli / dm-crypt sector records: geli_ref.py's model (the one that wrote
    them: this re-derives every record from its key, offset and plaintext)
  * authenc / essiv / essiv(authenc): composed here from the primitives above,
    following Linux crypto/authenc.c and crypto/essiv.c (see docs/vectors.md)

Usage:
  check_vectors.py                 vectors/*.vec, tests/data/independent.vec,
                                   tests/data/params.vec and
                                   tests/data/independent-flipped.vec
  check_vectors.py FILE|DIR ...    just these (every record must behave as
                                   its 'expect' says)
  check_vectors.py --flipped FILE LINE
                                   FILE must have exactly one mismatching
                                   record and it must start on line LINE

The parser is deliberately as strict as the C one is specified to be
(docs/vectors.md): '#' comment lines, records of 'name = value' lines
separated by blank lines, lowercase even-length hex or repeat(HEX, COUNT),
known fields only.  (The C parser also takes upper-case hex; the shipped
files keep the canonical lower case.)
Exit status 0 when everything checks, 1 otherwise.
"""

import glob
import hashlib
import hmac
import os
import re
import struct
import sys
import warnings

warnings.filterwarnings('ignore')  # Blowfish/3DES deprecation notices

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import argon2_ref  # noqa: E402
import geli_ref  # noqa: E402

try:  # cryptography >= 43 moved the old ciphers to "decrepit"
    from cryptography.hazmat.decrepit.ciphers.algorithms import Blowfish, TripleDES
except ImportError:  # pragma: no cover - depends on the installed version
    Blowfish, TripleDES = algorithms.Blowfish, algorithms.TripleDES

MAX_LINE = 70 * 1024
TEXT_FIELDS = {'alg', 'source', 'expect', 'mode', 'auth'}
HEX_RE = re.compile(r'^(?:[0-9a-f]{2})*$')
REPEAT_RE = re.compile(r'^repeat\(((?:[0-9a-f]{2})+), *([0-9]+)\)$')
HEX_FIELDS = ('key', 'iv', 'pt', 'ct', 'msg', 'md', 'mac', 'assoc', 'tag', 'iv_out',
              'password', 'salt', 'secret', 'dk', 'mkey', 'disk')
DEC_FIELDS = ('tlen', 'iterations', 'memory', 'lanes', 'key_bits', 'sector_size')
ZERO_FIELDS = ('offset', 'iv_large_sectors')     # decimal, 0 allowed
NAME_RE = re.compile(r'^[a-z_]+$')

# kind, allowed fields (besides alg/source/expect), required fields
KINDS = {
    'cipher': ({'key', 'iv', 'pt', 'ct', 'iv_out'}, {'pt', 'ct'}),
    'hash': ({'msg', 'md'}, {'msg', 'md'}),
    'mac': ({'key', 'msg', 'mac', 'tlen'}, {'key', 'msg', 'mac'}),
    'aead': ({'key', 'iv', 'assoc', 'pt', 'ct', 'tag', 'tlen'}, {'key', 'iv', 'assoc', 'pt', 'ct', 'tag'}),
    'kdf': ({'password', 'salt', 'iterations', 'memory', 'lanes', 'secret', 'assoc', 'dk'},
            {'password', 'salt', 'iterations', 'dk'}),
    # sector transforms (src/kat/kat_sector.c), by alg below
    'sector': ({'mode', 'key_bits', 'auth', 'sector_size', 'offset', 'mkey', 'key',
                'iv_large_sectors', 'pt', 'disk'},
               {'mode', 'sector_size', 'offset', 'pt', 'disk'}),
}
SECTOR_FIELDS = {'geli': {'mode', 'key_bits', 'auth', 'sector_size', 'offset', 'mkey', 'pt', 'disk'},
                 'dm-crypt': {'mode', 'key', 'sector_size', 'iv_large_sectors', 'offset', 'pt',
                              'disk'}}
# key derivation: pbkdf2 by Python's hashlib; Argon2 by argon2_ref.py (pure
# Python from RFC 9106: Debian 12's python3 has no Argon2 taking K and X)
KDFS = {'pbkdf2(hmac(sha1))': 'sha1', 'pbkdf2(hmac(sha256))': 'sha256',
        'pbkdf2(hmac(sha512))': 'sha512', 'pbkdf2(hmac(rmd160))': 'rmd160',
        'argon2i': None, 'argon2id': None}

# cipher algs: (key lengths in bytes, iv length, block for length rule, min length)
CIPHERS = {
    'ecb(aes)': ((16, 24, 32), 0, 16, 16),
    'cbc(aes)': ((16, 24, 32), 16, 16, 16),
    'ctr(aes)': ((16, 24, 32), 16, 1, 1),
    'xts(aes)': ((32, 48, 64), 16, 1, 16),
    'essiv(cbc(aes),sha256)': ((16, 24, 32), 16, 16, 16),
    'cbc(camellia)': ((16, 24, 32), 16, 16, 16),
    'cbc(blowfish)': (tuple(range(4, 57, 4)), 8, 8, 8),
    'cbc(des3_ede)': ((24,), 8, 8, 8),
    'ecb(cipher_null)': ((0,), 0, 1, 0),
    'cbc(serpent)': ((16, 24, 32), 16, 16, 16),
    'xts(serpent)': ((32, 48, 64), 16, 1, 16),
    'cbc(twofish)': ((16, 24, 32), 16, 16, 16),
    'xts(twofish)': ((32, 48, 64), 16, 1, 16),
    'chacha20': ((32,), 16, 1, 0),
}
# No independent implementation here (python3-cryptography has neither
# Serpent nor Twofish): their records are checked by cryptobench's own
# cross-check of libgcrypt against Nettle and by their sources only;
# this checker validates their shape and counts them as unchecked.
UNCHECKED = ('cbc(serpent)', 'xts(serpent)', 'cbc(twofish)', 'xts(twofish)')
# AEADs with a plain key: IV length
PLAIN_AEADS = {'gcm(aes)': 12, 'rfc4106(gcm(aes))': 8, 'rfc7539(chacha20,poly1305)': 12}
HASHES = {'md5': 16, 'sha1': 20, 'rmd160': 20, 'sha224': 28, 'sha256': 32, 'sha384': 48,
          'sha512': 64}
CHAINIV = ('cbc(aes)', 'ctr(aes)', 'cbc(camellia)', 'cbc(blowfish)', 'cbc(des3_ede)')
MACS = {'hmac(%s)' % h: h for h in HASHES}
AEADS = ('authenc(hmac(sha256),cbc(aes))', 'essiv(authenc(hmac(sha256),cbc(aes)),sha256)') + \
    tuple(PLAIN_AEADS)


def kind_of(alg):
    if alg in CIPHERS:
        return 'cipher'
    if alg in HASHES:
        return 'hash'
    if alg in MACS:
        return 'mac'
    if alg in AEADS:
        return 'aead'
    if alg in KDFS:
        return 'kdf'
    if alg in SECTOR_FIELDS:
        return 'sector'
    return None


# --------------------------------------------------------------- RIPEMD-160
# Straight transcription of the RIPEMD-160 specification (Dobbertin,
# Bosselaers, Preneel), so rmd160 does not depend on OpenSSL's legacy provider.
_RL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
       7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8,
       3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5, 12,
       1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2,
       4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13]
_RR = [5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12,
       6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2,
       15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4, 13,
       8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14,
       12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11]
_SL = [11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8,
       7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12,
       11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5, 12, 7, 5,
       11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12,
       9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6]
_SR = [8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6,
       9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11,
       9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13, 13, 7, 5,
       15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8,
       8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11]
_KL = [0x00000000, 0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC, 0xA953FD4E]
_KR = [0x50A28BE6, 0x5C4DD124, 0x6D703EF3, 0x7A6D76E9, 0x00000000]
_M32 = 0xFFFFFFFF


def _rol(x, n):
    return ((x << n) | (x >> (32 - n))) & _M32


def _f(j, x, y, z):
    if j < 16:
        return x ^ y ^ z
    if j < 32:
        return (x & y) | (~x & z)
    if j < 48:
        return (x | ~y) ^ z
    if j < 64:
        return (x & z) | (y & ~z)
    return x ^ (y | ~z)


def rmd160_py(msg):
    h = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
    data = msg + b'\x80' + b'\x00' * ((55 - len(msg)) % 64) + struct.pack('<Q', 8 * len(msg))
    for off in range(0, len(data), 64):
        X = struct.unpack('<16I', data[off:off + 64])
        al, bl, cl, dl, el = h
        ar, br, cr, dr, er = h
        for j in range(80):
            t = (_rol((al + (_f(j, bl, cl, dl) & _M32) + X[_RL[j]] + _KL[j // 16]) & _M32, _SL[j]) + el) & _M32
            al, el, dl, cl, bl = el, dl, _rol(cl, 10), bl, t
            t = (_rol((ar + (_f(79 - j, br, cr, dr) & _M32) + X[_RR[j]] + _KR[j // 16]) & _M32, _SR[j]) + er) & _M32
            ar, er, dr, cr, br = er, dr, _rol(cr, 10), br, t
        t = (h[1] + cl + dr) & _M32
        h[1] = (h[2] + dl + er) & _M32
        h[2] = (h[3] + el + ar) & _M32
        h[3] = (h[4] + al + br) & _M32
        h[4] = (h[0] + bl + cr) & _M32
        h[0] = t
    return struct.pack('<5I', *h)


class _Rmd160:
    """hashlib-style object around rmd160_py, usable by hmac.new()."""
    digest_size = 20
    block_size = 64
    name = 'rmd160'

    def __init__(self, data=b''):
        self._buf = bytes(data)

    def update(self, data):
        self._buf += bytes(data)

    def copy(self):
        return _Rmd160(self._buf)

    def digest(self):
        return rmd160_py(self._buf)


def _hashlib_rmd160():
    try:
        hashlib.new('ripemd160', b'')
        return True
    except (ValueError, TypeError):
        return False


HAVE_OPENSSL_RMD = _hashlib_rmd160()


def digest(name, msg):
    if name == 'rmd160':
        d = rmd160_py(msg)
        if HAVE_OPENSSL_RMD:
            assert d == hashlib.new('ripemd160', msg).digest(), 'rmd160 implementations disagree'
        return d
    return hashlib.new(name, msg).digest()


def hmac_full(name, key, msg):
    if name == 'rmd160':
        d = hmac.new(key, msg, _Rmd160).digest()
        if HAVE_OPENSSL_RMD:
            assert d == hmac.new(key, msg, 'ripemd160').digest(), 'hmac-rmd160 implementations disagree'
        return d
    return hmac.new(key, msg, name).digest()


def pbkdf2_rmd160_py(password, salt, c, dklen):
    """PBKDF2 (RFC 8018 section 5.2) with hmac on the pure-Python RIPEMD-160."""
    out, i = b'', 1
    while len(out) < dklen:
        u = hmac.new(password, salt + struct.pack('>I', i), _Rmd160).digest()
        t = int.from_bytes(u, 'big')
        for _ in range(c - 1):
            u = hmac.new(password, u, _Rmd160).digest()
            t ^= int.from_bytes(u, 'big')
        out += t.to_bytes(len(u), 'big')
        i += 1
    return out[:dklen]


def pbkdf2(name, password, salt, c, dklen):
    """PBKDF2-HMAC by hashlib; RIPEMD-160 by the pure-Python one where
    OpenSSL 3 has no ripemd160 (slow: seconds for 4096 iterations)."""
    if name == 'rmd160':
        if not HAVE_OPENSSL_RMD:
            return pbkdf2_rmd160_py(password, salt, c, dklen)
        name = 'ripemd160'
    return hashlib.pbkdf2_hmac(name, password, salt, c, dklen)


# --------------------------------------------------------------- ChaCha20
# RFC 8439 sections 2.1-2.4, written from the RFC: the block counter is the
# 32-bit state word 12 and wraps modulo 2^32; the 96-bit nonce never changes.
def _rotl32(x, n):
    return ((x << n) | (x >> (32 - n))) & _M32


def _qround(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & _M32; s[d] = _rotl32(s[d] ^ s[a], 16)  # noqa: E702
    s[c] = (s[c] + s[d]) & _M32; s[b] = _rotl32(s[b] ^ s[c], 12)  # noqa: E702
    s[a] = (s[a] + s[b]) & _M32; s[d] = _rotl32(s[d] ^ s[a], 8)   # noqa: E702
    s[c] = (s[c] + s[d]) & _M32; s[b] = _rotl32(s[b] ^ s[c], 7)   # noqa: E702


def chacha20_block(key, counter, nonce):
    """The ChaCha20 block function (RFC 8439 section 2.3): 64 bytes."""
    init = ([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] + list(struct.unpack('<8I', key)) +
            [counter & _M32] + list(struct.unpack('<3I', nonce)))
    s = list(init)
    for _ in range(10):
        for a, b, c, d in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                           (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
            _qround(s, a, b, c, d)
    return struct.pack('<16I', *((x + y) & _M32 for x, y in zip(s, init)))


def chacha20_py(key, iv16, data):
    """ChaCha20 encryption (RFC 8439 section 2.4) with the kernel's 16-byte
    IV, le32 block counter || 96-bit nonce; the counter wraps modulo 2^32."""
    (counter,), nonce = struct.unpack('<I', iv16[:4]), iv16[4:]
    out = bytearray()
    for i in range(0, len(data), 64):
        ks = chacha20_block(key, counter + i // 64, nonce)
        out += bytes(x ^ y for x, y in zip(data[i:i + 64], ks))
    return bytes(out)


def chacha20(key, iv16, data):
    """chacha20_py, checked against python3-cryptography run in pieces that
    never cross the counter's wrap: up to it, then from counter 0 with the
    same nonce (one call across it, OpenSSL would carry into the nonce)."""
    mine = chacha20_py(key, iv16, data)
    (counter,) = struct.unpack('<I', iv16[:4])
    before = min(len(data), 64 * ((1 << 32) - counter))
    lib = _run(algorithms.ChaCha20(key, iv16), None, key, data[:before], True)
    if before < len(data):
        lib += _run(algorithms.ChaCha20(key, bytes(4) + iv16[4:]), None, key, data[before:], True)
    assert lib == mine, 'ChaCha20 implementations disagree'
    return mine


# ----------------------------------------------------------------- ciphers
def _run(alg, mode, key, data, enc):
    c = Cipher(alg, mode)
    x = c.encryptor() if enc else c.decryptor()
    return x.update(data) + x.finalize()


def aes_ecb(key, data, enc=True):
    return _run(algorithms.AES(key), modes.ECB(), key, data, enc)


def xts(key, iv, data, enc):
    """python3-cryptography where it can (2x128, 2x256, distinct halves),
    cross-checked with the IEEE 1619 construction; that one alone otherwise."""
    mine = xts_ieee(key, iv, data, enc)
    if len(key) in (32, 64) and key[:len(key) // 2] != key[len(key) // 2:]:
        lib = _run(algorithms.AES(key), modes.XTS(iv), key, data, enc)
        assert lib == mine, 'XTS implementations disagree'
    return mine


def _gf_double(t):
    """Multiply the 128-bit tweak by alpha (IEEE 1619 5.2, little-endian)."""
    n = int.from_bytes(t, 'little') << 1
    if n >> 128:
        n = (n & ((1 << 128) - 1)) ^ 0x87
    return n.to_bytes(16, 'little')


def _xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def xts_ieee(key, tweak, data, enc):
    """XTS-AES by IEEE Std 1619-2007 section 5 (with ciphertext stealing),
    on AES-ECB: any AES key size, equal halves allowed (which OpenSSL, and so
    python3-cryptography, refuse)."""
    k1, k2 = key[:len(key) // 2], key[len(key) // 2:]
    t = aes_ecb(k2, tweak)
    blocks = [data[i:i + 16] for i in range(0, len(data), 16)]
    tail = len(blocks[-1]) if len(blocks[-1]) < 16 else 0
    tw = []
    for _ in blocks:
        tw.append(t)
        t = _gf_double(t)
    one = lambda b, tt: _xor(aes_ecb(k1, _xor(b, tt), enc), tt)  # noqa: E731
    n = len(blocks) - (2 if tail else 0)
    out = [one(blocks[i], tw[i]) for i in range(n)]
    if tail:
        pm, pl = blocks[-2], blocks[-1]
        # decrypting swaps the two last tweaks (5.4.2 step 8)
        ta, tb = (tw[n], tw[n + 1]) if enc else (tw[n + 1], tw[n])
        cc = one(pm, ta)
        out += [one(pl + cc[tail:], tb), cc[:tail]]
    return b''.join(out)


def essiv_iv(key_for_salt, iv):
    salt = hashlib.sha256(key_for_salt).digest()
    return aes_ecb(salt, iv)


def cipher(alg, key, iv, data, enc):
    if alg == 'ecb(cipher_null)':
        return bytes(data)
    if alg == 'ecb(aes)':
        return _run(algorithms.AES(key), modes.ECB(), key, data, enc)
    if alg == 'cbc(aes)':
        return _run(algorithms.AES(key), modes.CBC(iv), key, data, enc)
    if alg == 'ctr(aes)':
        return _run(algorithms.AES(key), modes.CTR(iv), key, data, enc)
    if alg == 'xts(aes)':
        return xts(key, iv, data, enc)
    if alg == 'essiv(cbc(aes),sha256)':
        return _run(algorithms.AES(key), modes.CBC(essiv_iv(key, iv)), key, data, enc)
    if alg == 'cbc(camellia)':
        return _run(algorithms.Camellia(key), modes.CBC(iv), key, data, enc)
    if alg == 'cbc(blowfish)':
        return _run(Blowfish(key), modes.CBC(iv), key, data, enc)
    if alg == 'chacha20':   # the kernel's IV: le32 counter || nonce, wrapping mod 2^32
        return chacha20(key, iv, data)
    if alg == 'cbc(des3_ede)':
        return _run(TripleDES(key), modes.CBC(iv), key, data, enc)
    raise ValueError(alg)


def parse_authenc_key(blob):
    """Kernel crypto_authenc_extractkeys(): rtattr header, be32 enckeylen, authkey, enckey."""
    if len(blob) < 8:
        raise ValueError('authenc key shorter than its 8-byte rtattr header')
    rta_len, rta_type = struct.unpack('<HH', blob[:4])
    if rta_len != 8 or rta_type != 1:
        raise ValueError('authenc key must start 08000100 (rta_len 8, CRYPTO_AUTHENC_KEYA_PARAM), got %s' % blob[:4].hex())
    (enckeylen,) = struct.unpack('>I', blob[4:8])
    rest = blob[8:]
    if enckeylen not in (16, 24, 32) or enckeylen > len(rest):
        raise ValueError('bad enckeylen %d' % enckeylen)
    return rest[:len(rest) - enckeylen], rest[len(rest) - enckeylen:]


def plain_aead(alg, key, iv, assoc):
    """The primitive, nonce and authenticated data of a plain-key AEAD record."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
    if alg == 'rfc7539(chacha20,poly1305)':
        return ChaCha20Poly1305(key), iv, assoc
    if alg == 'rfc4106(gcm(aes))':
        # crypto/gcm.c: nonce = salt (last 4 key bytes) || iv; the assoc's
        # last 8 bytes (ESP's copy of the IV) are not authenticated
        return AESGCM(key[:-4]), key[-4:] + iv, assoc[:-8]
    return AESGCM(key), iv, assoc


def aead_seal(alg, key, iv, assoc, pt):
    """Return (ct, full tag) as Linux authenc / essiv(authenc) / gcm / rfc7539 produce them."""
    if alg in PLAIN_AEADS:
        a, nonce, ad = plain_aead(alg, key, iv, assoc)
        out = a.encrypt(nonce, pt, ad)
        return out[:-16], out[-16:]
    authkey, enckey = parse_authenc_key(key)
    if alg.startswith('essiv('):
        # crypto/essiv.c essiv_aead_setkey(): salt = SHA-256(enckey || authkey)
        civ = essiv_iv(enckey + authkey, iv)
        if len(assoc) < 16:
            raise ValueError('essiv(authenc) needs assoc >= 16 bytes (the IV lives at its end)')
        assoc = assoc[:-16] + civ  # essiv_aead_crypt() copies the encrypted IV there
        iv = civ
    ct = _run(algorithms.AES(enckey), modes.CBC(iv), enckey, pt, True)
    tag = hmac.new(authkey, assoc + ct, 'sha256').digest()
    return ct, tag


def aead_open(alg, key, iv, assoc, ct, tag):
    """Return plaintext, or None when the tag does not verify."""
    if alg in PLAIN_AEADS:
        from cryptography.exceptions import InvalidTag
        a, nonce, ad = plain_aead(alg, key, iv, assoc)
        try:
            if len(tag) == 16:
                return a.decrypt(nonce, ct + tag, ad)
            if alg != 'rfc7539(chacha20,poly1305)' and len(tag) >= 4:
                # a truncated GCM tag: the library checks its first len(tag) bytes
                aes = key[:-4] if alg.startswith('rfc4106') else key
                d = Cipher(algorithms.AES(aes), modes.GCM(nonce, tag, min_tag_length=len(tag))).decryptor()
                d.authenticate_additional_data(ad)
                return d.update(ct) + d.finalize()
        except InvalidTag:
            return None
        # otherwise: the tag must be the first bytes of the full one
        pt = (_run(algorithms.ChaCha20(key, struct.pack('<I', 1) + nonce), None, key, ct, False)
              if alg == 'rfc7539(chacha20,poly1305)' else
              _run(algorithms.AES(key[:-4] if alg.startswith('rfc4106') else key),
                   modes.CTR(nonce + struct.pack('>I', 2)), key, ct, False))
        t2 = aead_seal(alg, key, iv, assoc, pt)[1]
        return pt if hmac.compare_digest(t2[:len(tag)], tag) else None
    authkey, enckey = parse_authenc_key(key)
    if alg.startswith('essiv('):
        civ = essiv_iv(enckey + authkey, iv)
        assoc = assoc[:-16] + civ
        iv = civ
    want = hmac.new(authkey, assoc + ct, 'sha256').digest()[:len(tag)]
    if not hmac.compare_digest(want, tag):
        return None
    return _run(algorithms.AES(enckey), modes.CBC(iv), enckey, ct, False)


# ------------------------------------------------------------------ parser
class VecError(Exception):
    pass


class Record:
    def __init__(self, path, line):
        self.path, self.line = path, line
        self.f, self.lines = {}, {}

    def where(self, name=None):
        return '%s:%d' % (self.path, self.lines.get(name, self.line))

    def hexv(self, name, default=None):
        v = self.f.get(name)
        if v is None:
            return default
        m = REPEAT_RE.match(v)
        return bytes.fromhex(m.group(1)) * int(m.group(2)) if m else bytes.fromhex(v)


def parse(path):
    recs, cur = [], None
    with open(path, 'rb') as fh:
        raw = fh.read()
    try:
        text = raw.decode('ascii')
    except UnicodeDecodeError as e:
        raise VecError('%s: not ASCII (%s)' % (path, e))
    if text and not text.endswith('\n'):
        raise VecError('%s: last line has no newline' % path)
    for n, line in enumerate(text.split('\n')[:-1] if text else [], 1):
        if len(line) > MAX_LINE:
            raise VecError('%s:%d: line longer than %d bytes' % (path, n, MAX_LINE))
        if line.endswith('\r'):
            raise VecError('%s:%d: CR line ending' % (path, n))
        if line.startswith('#'):
            continue
        if line.strip() == '':
            if line != '':
                raise VecError('%s:%d: blank line with whitespace' % (path, n))
            if cur is not None:
                recs.append(cur)
                cur = None
            continue
        m = re.match(r'^([a-z_]+) = (.*)$', line)
        if not m:
            m2 = re.match(r'^([a-z_]+) =$', line)  # empty value
            if not m2:
                raise VecError('%s:%d: expected "name = value", got %r' % (path, n, line[:60]))
            name, val = m2.group(1), ''
        else:
            name, val = m.group(1), m.group(2)
        if cur is None:
            cur = Record(path, n)
        if name in cur.f:
            raise VecError('%s:%d: duplicate field %r' % (path, n, name))
        if name in TEXT_FIELDS:
            if val != val.strip() or (name != 'source' and not val):
                raise VecError('%s:%d: bad %s value %r' % (path, n, name, val))
        elif name in HEX_FIELDS:
            if not HEX_RE.match(val) and not REPEAT_RE.match(val):
                raise VecError('%s:%d: %s is not lowercase even-length hex' % (path, n, name))
        elif name in DEC_FIELDS:
            if not re.match(r'^[1-9][0-9]*$', val):
                raise VecError('%s:%d: %s is not a positive count' % (path, n, name))
        elif name in ZERO_FIELDS:
            if not re.match(r'^(?:0|[1-9][0-9]*)$', val):
                raise VecError('%s:%d: %s is not a decimal number' % (path, n, name))
        else:
            raise VecError('%s:%d: unknown field %r' % (path, n, name))
        cur.f[name] = val
        cur.lines[name] = n
    if cur is not None:
        recs.append(cur)
    return recs


def validate(r):
    alg = r.f.get('alg')
    if alg is None:
        raise VecError('%s: record has no alg' % r.where())
    k = kind_of(alg)
    if k is None:
        raise VecError('%s: unknown alg %r (use the canonical name)' % (r.where('alg'), alg))
    if 'source' not in r.f or not r.f['source']:
        raise VecError('%s: record has no source' % r.where())
    if 'expect' in r.f and r.f['expect'] != 'fail':
        raise VecError('%s: expect must be "fail"' % r.where('expect'))
    allowed, required = KINDS[k]
    if k == 'sector':
        allowed = SECTOR_FIELDS[alg]
        required = required | ({'mkey'} if alg == 'geli' else set())
    for name in r.f:
        if name not in TEXT_FIELDS and name not in allowed:
            raise VecError('%s: field %r does not apply to %s' % (r.where(name), name, alg))
    for name in required:
        if name not in r.f:
            raise VecError('%s: %s record lacks %r' % (r.where(), alg, name))
    if k == 'cipher':
        klens, ivlen, block, minlen = CIPHERS[alg]
        key, iv, pt, ct = r.hexv('key', b''), r.hexv('iv', b''), r.hexv('pt'), r.hexv('ct')
        if len(key) not in klens:
            raise VecError('%s: %d-byte key not valid for %s' % (r.where('key'), len(key), alg))
        if len(iv) != ivlen:
            raise VecError('%s: iv must be %d bytes for %s' % (r.where('iv'), ivlen, alg))
        if len(pt) != len(ct):
            raise VecError('%s: pt/ct length differ' % r.where('ct'))
        if len(pt) % block or len(pt) < minlen:
            raise VecError('%s: %d bytes is not a valid length for %s' % (r.where('pt'), len(pt), alg))
        if 'iv_out' in r.f and (alg not in CHAINIV or len(r.hexv('iv_out')) != ivlen
                                or len(pt) % ivlen or r.f.get('expect')):
            raise VecError('%s: iv_out needs cbc/ctr, whole blocks, a positive record' % r.where('iv_out'))
    elif k == 'hash':
        if len(r.hexv('md')) != HASHES[alg]:
            raise VecError('%s: md must be %d bytes' % (r.where('md'), HASHES[alg]))
    elif k == 'mac':
        full, ml = HASHES[MACS[alg]], len(r.hexv('mac'))
        tlen = int(r.f['tlen']) if 'tlen' in r.f else full
        if ml != tlen or not 1 <= tlen <= full:
            raise VecError('%s: mac must be the full %d-byte digest, or tlen bytes of it' % (r.where('mac'), full))
    elif k == 'aead' and alg in PLAIN_AEADS:
        klen = len(r.hexv('key'))
        if klen not in ((20, 28, 36) if alg.startswith('rfc4106') else
                        (32,) if alg.startswith('rfc7539') else (16, 24, 32)):
            raise VecError('%s: %d-byte key not valid for %s' % (r.where('key'), klen, alg))
        if len(r.hexv('iv')) != PLAIN_AEADS[alg]:
            raise VecError('%s: iv must be %d bytes' % (r.where('iv'), PLAIN_AEADS[alg]))
        if len(r.hexv('pt')) != len(r.hexv('ct')) or not 1 <= len(r.hexv('tag')) <= 16:
            raise VecError('%s: pt/ct lengths differ or the tag is not 1..16 bytes' % r.where('ct'))
        if alg.startswith('rfc4106') and len(r.hexv('assoc')) < 8:
            raise VecError('%s: rfc4106 assoc ends with the 8-byte IV' % r.where('assoc'))
    elif k == 'aead':
        parse_authenc_key(r.hexv('key'))
        if len(r.hexv('iv')) != 16:
            raise VecError('%s: iv must be 16 bytes' % r.where('iv'))
        pt, ct, tag = r.hexv('pt'), r.hexv('ct'), r.hexv('tag')
        if len(pt) != len(ct) or len(pt) % 16:
            raise VecError('%s: pt/ct must be equal multiples of 16 bytes' % r.where('ct'))
        if not 1 <= len(tag) <= 32:
            raise VecError('%s: tag must be 1..32 bytes' % r.where('tag'))
        if alg.startswith('essiv(') and len(r.hexv('assoc')) < 16:
            raise VecError('%s: essiv(authenc) assoc must be >= 16 bytes' % r.where('assoc'))
    elif k == 'sector':
        ss, off, pt = int(r.f['sector_size']), int(r.f['offset']), r.hexv('pt')
        if off % ss or not pt or len(pt) % ss:
            raise VecError('%s: offset and pt must be whole %d-byte sectors' % (r.where('pt'), ss))
        if r.f.get('expect') and 'auth' not in r.f:
            raise VecError('%s: expect = fail needs an authenticated geli record' % r.where('expect'))
    if k == 'aead' and 'tlen' in r.f and int(r.f['tlen']) != len(r.hexv('tag')):
        raise VecError('%s: tlen = %s but the tag is %d bytes' % (r.where('tlen'), r.f['tlen'],
                                                                 len(r.hexv('tag'))))
    return alg, k


def sector_matches(r, alg):
    """geli / dm-crypt: geli_ref.py's model must give disk from pt, and
    (geli) find no bad sector reading it back."""
    off, pt, disk = int(r.f['offset']), r.hexv('pt'), r.hexv('disk')
    if alg == 'geli':
        g = geli_ref.Geli(r.f['mode'], int(r.f.get('key_bits', 0)), r.f.get('auth'),
                          int(r.f['sector_size']), r.hexv('mkey'))
        return g.encrypt(off, pt) == disk and g.decrypt(off, disk) == (pt, [])
    d = geli_ref.DmCrypt(r.f['mode'], r.hexv('key', b''), int(r.f['sector_size']),
                         bool(int(r.f.get('iv_large_sectors', 0))))
    return d.encrypt(off, pt) == disk and d.decrypt(off, disk) == pt


def matches(r, alg, k):
    """True when the record's expected output is reproduced in every direction
    (None: no independent implementation here, see UNCHECKED)."""
    if alg in UNCHECKED:
        return None
    if k == 'sector':
        return sector_matches(r, alg)
    if k == 'kdf' and KDFS[alg] is None:
        dk = r.hexv('dk')
        return argon2_ref.argon2(alg, r.hexv('password'), r.hexv('salt'),
                                 int(r.f['iterations']), int(r.f['memory']),
                                 int(r.f['lanes']), len(dk), r.hexv('secret', b''),
                                 r.hexv('assoc', b'')) == dk
    if k == 'kdf':
        dk = r.hexv('dk')
        return pbkdf2(KDFS[alg], r.hexv('password'), r.hexv('salt'),
                      int(r.f['iterations']), len(dk)) == dk
    if k == 'cipher':
        key, iv, pt, ct = r.hexv('key', b''), r.hexv('iv', b''), r.hexv('pt'), r.hexv('ct')
        enc = cipher(alg, key, iv, pt, True)
        dec = cipher(alg, key, iv, ct, False)
        if 'iv_out' in r.f:
            nxt = (ct[-len(iv):] if alg.startswith('cbc(') else
                   ((int.from_bytes(iv, 'big') + len(pt) // 16) % (1 << 128)).to_bytes(16, 'big'))
            if nxt != r.hexv('iv_out'):
                return False
        return enc == ct and dec == pt
    if k == 'hash':
        return digest(alg, r.hexv('msg')) == r.hexv('md')
    if k == 'mac':
        mac = r.hexv('mac')
        return hmac_full(MACS[alg], r.hexv('key'), r.hexv('msg'))[:len(mac)] == mac
    if k == 'aead':
        key, iv, ad = r.hexv('key'), r.hexv('iv'), r.hexv('assoc')
        pt, ct, tag = r.hexv('pt'), r.hexv('ct'), r.hexv('tag')
        c2, t2 = aead_seal(alg, key, iv, ad, pt)
        opened = aead_open(alg, key, iv, ad, ct, tag)
        return c2 == ct and t2[:len(tag)] == tag and opened == pt
    raise ValueError(k)


def check_file(path, stats, want_all_pass=None):
    """Check one file.  Returns list of (record, ok) for records that did not behave."""
    bad = []
    recs = parse(path)
    if not recs:
        raise VecError('%s: no records' % path)
    for r in recs:
        alg, k = validate(r)
        neg = r.f.get('expect') == 'fail'
        ok = matches(r, alg, k)
        stats.setdefault(alg, [0, 0, 0])
        if ok is None:
            stats.setdefault('(unchecked: ' + alg + ')', [0, 0, 0])[0] += 1
            continue
        good = (not ok) if neg else ok
        stats[alg][1 if neg else 0] += 1
        if not good:
            stats[alg][2] += 1
            bad.append(r)
    return recs, bad


def selftest():
    """The RIPEMD-160 and ChaCha20 references must reproduce the published
    values: the RIPEMD-160 page's digests, RFC 8439 section 2.3.2 (block
    function) and 2.4.2 (encryption)."""
    for m, d in ((b'', '9c1185a5c5e9fc54612808977ee8f548b2258d31'),
                 (b'abc', '8eb208f7e05d987a9b044a8e98c6b087f15a0bfc'),
                 (b'a' * 1000000, '52783243c1697bdbe16d37f97f68f08325dc1528')):
        assert rmd160_py(m).hex() == d, 'rmd160 self-test failed'
    key = bytes(range(32))
    assert chacha20_block(key, 1, bytes.fromhex('000000090000004a00000000')).hex() == (
        '10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e'
        'd2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e'), 'chacha20 block self-test failed'
    pt = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
          b"for the future, sunscreen would be it.")
    assert chacha20_py(key, struct.pack('<I', 1) + bytes.fromhex('000000000000004a00000000'), pt).hex() == (
        '6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b'
        'f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8'
        '07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736'
        '5af90bbf74a35be6b40b8eedf2785e42874d'), 'chacha20 encryption self-test failed'


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, '..', '..'))
    selftest()
    stats, failures, nrec, nfiles = {}, [], 0, 0
    flipped = None
    if argv[:1] == ['--flipped']:
        if len(argv) != 3:
            print('usage: check_vectors.py --flipped FILE LINE', file=sys.stderr)
            return 2
        flipped = (argv[1], int(argv[2]))
        paths = []
    elif argv:
        paths = []
        for a in argv:
            paths += sorted(glob.glob(os.path.join(a, '*.vec'))) if os.path.isdir(a) else [a]
    else:
        paths = sorted(glob.glob(os.path.join(root, 'vectors', '*.vec')))
        paths.append(os.path.join(here, 'independent.vec'))
        paths.append(os.path.join(here, 'params.vec'))
        fl = os.path.join(here, 'independent-flipped.vec')
        with open(os.path.join(here, 'independent-flipped.line')) as fh:
            flipped = (fl, int(fh.read().strip()))
    try:
        for p in paths:
            recs, bad = check_file(p, stats)
            nrec += len(recs)
            nfiles += 1
            negs = sum(1 for r in recs if r.f.get('expect') == 'fail')
            print('%-48s %4d records (%d negative)%s' % (os.path.relpath(p, root), len(recs), negs,
                                                         '' if not bad else '  %d BAD' % len(bad)))
            # (dm-crypt records cannot be negative: only an authenticated geli
            # record may say expect = fail, src/kat/kat_sector.c)
            if os.path.basename(os.path.dirname(os.path.abspath(p))) == 'vectors' and negs == 0 \
                    and any(r.f['alg'] != 'dm-crypt' for r in recs):
                failures.append('%s: no negative (expect = fail) record' % p)
            for r in bad:
                failures.append('%s: %s record does not %s' % (r.where(), r.f['alg'],
                                'fail as expected' if r.f.get('expect') == 'fail' else 'match'))
        if flipped:
            fpath, fline = flipped
            fstats = {}
            recs, bad = check_file(fpath, fstats)
            lines = [r.line for r in bad]
            print('%-48s %4d records, mismatching record(s) at line(s) %s (expected exactly line %d)' % (
                os.path.relpath(fpath, root), len(recs), lines or 'none', fline))
            if lines != [fline] or any(r.f.get('expect') for r in recs):
                failures.append('%s: expected exactly one unmarked mismatching record at line %d, got %s'
                                % (fpath, fline, lines))
            nfiles += 1
    except VecError as e:
        print('error: %s' % e, file=sys.stderr)
        return 1
    print()
    print('%-48s %8s %8s %6s' % ('alg', 'positive', 'negative', 'bad'))
    for alg in sorted(stats):
        p, n, b = stats[alg]
        print('%-48s %8d %8d %6d' % (alg, p, n, b))
    for f in failures:
        print('FAIL: ' + f, file=sys.stderr)
    npass = nrec - sum(s[2] for s in stats.values())
    print('%d files, %d records' % (nfiles, nrec))
    print('%d passed, %d failed' % (npass, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
