#!/usr/bin/env python3
"""geli_ref.py - an independent, from-scratch model of the on-disk formats
that `cryptobench dd` writes: FreeBSD geli metadata version 7 (with and
without data authentication) and the Linux dm-crypt IV generators.

It never calls cryptobench.  It is written from the specification in
docs/dd.md and the FreeBSD / Linux sources it cites (sys/geom/eli/
g_eli_key_cache.c, g_eli_key.c, g_eli_crypto.c, g_eli_integrity.c,
g_eli_privacy.c; drivers/md/dm-crypt.c), with the block ciphers and hashes
of Python's `cryptography` package (OpenSSL underneath) and `hashlib`/`hmac`.
Only ECB/CBC/XTS single-request primitives are taken from the library; every
key derivation, IV, tweak, sector layout and HMAC placement is computed here.

Used to derive vectors/geli.vec and vectors/dmcrypt.vec (`vectors`
subcommand) and by tests/test_dd.sh to check images byte for byte:

  geli_ref.py geli    -e aes -l 256 [-a hmac/sha256] -s 4096 -K mkeyfile
                      [--offset N] [--decrypt] < in > out
  geli_ref.py dmcrypt -e aes-cbc-essiv:sha256 -s 512 -K keyfile
                      [--offset N] [--iv-large-sectors] [--decrypt] < in > out
  geli_ref.py vectors geli|dmcrypt > FILE
"""
import argparse
import hashlib
import hmac
import struct
import sys
import warnings

warnings.filterwarnings("ignore")  # Blowfish/3DES deprecation notices

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

try:  # cryptography >= 43 moved these two
    from cryptography.hazmat.decrepit.ciphers.algorithms import (
        Blowfish, TripleDES)
except ImportError:  # Debian 12's python3-cryptography 38
    Blowfish, TripleDES = algorithms.Blowfish, algorithms.TripleDES


def le64(x):
    return struct.pack("<Q", x)


def be64(x):
    return struct.pack(">Q", x)


# --- block cipher requests: one call = one request with its own IV --------

def _cipher(name, key):
    if name == "aes":
        return algorithms.AES(key), 16
    if name == "camellia":
        return algorithms.Camellia(key), 16
    if name == "blowfish":
        return Blowfish(key), 8
    if name == "des3_ede":
        return TripleDES(key), 8
    raise ValueError(name)


def crypt(cipher, chain, key, iv, data, enc):
    """One request of `chain(cipher)`; cipher_null is the identity."""
    if cipher == "cipher_null":
        return bytes(data)
    if chain == "xts":
        c = Cipher(algorithms.AES(key), modes.XTS(iv))
    else:
        alg, _ = _cipher(cipher, key)
        c = Cipher(alg, modes.CBC(iv) if chain == "cbc" else modes.ECB())
    x = c.encryptor() if enc else c.decryptor()
    return x.update(bytes(data)) + x.finalize()


def block_size(cipher):
    return 1 if cipher == "cipher_null" else _cipher(
        cipher, b"\0" * (24 if cipher == "des3_ede" else 16))[1]


# --- FreeBSD geli, metadata version 7 --------------------------------------

# geli -e name -> (cipher, chain, default -l, allowed -l)
GELI_EALGS = {
    "aes": ("aes", "xts", 128, (128, 256)),
    "aes-xts": ("aes", "xts", 128, (128, 256)),
    "aes-cbc": ("aes", "cbc", 128, (128, 192, 256)),
    "camellia": ("camellia", "cbc", 128, (128, 192, 256)),
    "camellia-cbc": ("camellia", "cbc", 128, (128, 192, 256)),
    "blowfish": ("blowfish", "cbc", 128, tuple(range(128, 449, 32))),
    "blowfish-cbc": ("blowfish", "cbc", 128, tuple(range(128, 449, 32))),
    "3des": ("des3_ede", "cbc", 192, (192,)),
    "3des-cbc": ("des3_ede", "cbc", 192, (192,)),
    "null": ("cipher_null", "cbc", 0, None),
}
# geli -a name -> (hashlib name, output length = g_eli_hashlen())
GELI_AALGS = {
    "hmac/md5": ("md5", 16),
    "hmac/sha1": ("sha1", 20),
    "hmac/ripemd160": ("ripemd160", 20),
    "hmac/sha256": ("sha256", 32),
    "hmac/sha384": ("sha384", 48),
    "hmac/sha512": ("sha512", 64),
}

DISK_SECTOR = 512          # the underlying provider's sector size
KEY_SHIFT = 20             # G_ELI_KEY_SHIFT: new key every 2^20 blocks


def hmac512(key, msg):
    return hmac.new(key, msg, hashlib.sha512).digest()


class Geli:
    def __init__(self, ealg, keylen, aalg, sectorsize, mkey):
        if len(mkey) != 128:
            raise ValueError("the master key is 128 bytes")
        self.cipher, self.chain, dflt, allowed = GELI_EALGS[ealg]
        self.keylen = keylen if keylen else dflt
        if allowed is not None and self.keylen not in allowed:
            raise ValueError("bad key length")
        self.ss = sectorsize
        ivkey, datakey = mkey[:64], mkey[64:]
        self.ivkey = ivkey
        self.auth = GELI_AALGS[aalg] if aalg else None
        if self.auth:
            # g_eli_key_init / g_eli_mkey_propagate (v7)
            self.ekey_base = hmac512(datakey, b"\x10")
            self.akey = hmac512(datakey, b"\x11")
            alen = self.auth[1]
            dps = DISK_SECTOR - alen
            self.dps = dps - dps % 16                       # sc_data_per_sector
            self.nchunks = (self.ss - 1) // self.dps + 1    # sc_bytes_per_sector / 512
            self.keyblock = DISK_SECTOR
        else:
            self.ekey_base = datakey
            self.keyblock = self.ss
        self.iv_len = 0 if self.cipher == "cipher_null" else block_size(self.cipher)

    def disk_sector_bytes(self):
        return self.nchunks * DISK_SECTOR if self.auth else self.ss

    def ekey(self, offset):
        """g_eli_key_hold(): key number from the byte offset, then
        HMAC-SHA512(ekey_base, "ekey" || le64(keyno)), cut to the key length."""
        keyno = (offset >> KEY_SHIFT) // self.keyblock
        k = hmac512(self.ekey_base, b"ekey" + le64(keyno))
        n = self.keylen // 8 * (2 if self.chain == "xts" else 1)
        return k[:n]

    def iv(self, offset):
        """g_eli_crypto_ivgen()."""
        if self.chain == "xts":
            return le64(offset) + b"\0" * 8
        return hashlib.sha256(self.ivkey + le64(offset)).digest()[:self.iv_len]

    def _one(self, offset, data, enc):
        if self.cipher == "cipher_null":
            return bytes(data)
        return crypt(self.cipher, self.chain, self.ekey(offset),
                     self.iv(offset), data, enc)

    def encrypt(self, offset, pt):
        """pt: whole geli sectors; offset: the provider (user) byte offset."""
        assert offset % self.ss == 0 and len(pt) % self.ss == 0
        out = bytearray()
        for s in range(len(pt) // self.ss):
            sec = pt[s * self.ss:(s + 1) * self.ss]
            off = offset + s * self.ss
            if not self.auth:
                out += self._one(off, sec, True)
                continue
            # g_eli_auth_run(): the sector is spread over nchunks disk sectors
            dstoff = off // self.ss * self.nchunks * DISK_SECTOR
            pos = 0
            for i in range(self.nchunks):
                n = self.dps if i < self.nchunks - 1 else self.ss % self.dps
                c = self._one(dstoff, sec[pos:pos + n], True)
                pos += n
                ak = hashlib.sha256(self.akey + le64(dstoff)).digest()
                tag = hmac.new(ak, c, self.auth[0]).digest()
                disk = tag + c
                out += disk + b"\0" * (DISK_SECTOR - len(disk))
                dstoff += DISK_SECTOR
        return bytes(out)

    def decrypt(self, offset, disk):
        """Returns (plaintext, [(offset, length) of data that failed to
        authenticate]); failed data reads back as zeros."""
        dsb = self.disk_sector_bytes()
        assert offset % self.ss == 0 and len(disk) % dsb == 0
        out, bad = bytearray(), []
        for s in range(len(disk) // dsb):
            sec = disk[s * dsb:(s + 1) * dsb]
            off = offset + s * self.ss
            if not self.auth:
                out += self._one(off, sec, False)
                continue
            dstoff = off // self.ss * self.nchunks * DISK_SECTOR
            for i in range(self.nchunks):
                n = self.dps if i < self.nchunks - 1 else self.ss % self.dps
                ds = sec[i * DISK_SECTOR:(i + 1) * DISK_SECTOR]
                alen = self.auth[1]
                tag, c = ds[:alen], ds[alen:alen + n]
                ak = hashlib.sha256(self.akey + le64(dstoff)).digest()
                if hmac.compare_digest(tag, hmac.new(ak, c, self.auth[0]).digest()):
                    out += self._one(dstoff, c, False)
                else:
                    uoff = off + i * self.dps
                    if bad and bad[-1][0] + bad[-1][1] == uoff:
                        bad[-1] = (bad[-1][0], bad[-1][1] + n)
                    else:
                        bad.append((uoff, n))
                    out += b"\0" * n
                dstoff += DISK_SECTOR
        return bytes(out), bad


# --- Linux dm-crypt IV generators ------------------------------------------

def iv_plain(sector, ivlen, bs):
    return struct.pack("<I", sector & 0xffffffff) + b"\0" * (ivlen - 4)


def iv_plain64(sector, ivlen, bs):
    return le64(sector) + b"\0" * (ivlen - 8)


def iv_plain64be(sector, ivlen, bs):
    return b"\0" * (ivlen - 8) + be64(sector & 0xffffffffffffffff)


def iv_benbi(sector, ivlen, bs):
    shift = 9 - (bs.bit_length() - 1)
    return b"\0" * (ivlen - 8) + be64(((sector << shift) + 1) & 0xffffffffffffffff)


def iv_null(sector, ivlen, bs):
    return b"\0" * ivlen


DM_IVGENS = {"plain": iv_plain, "plain64": iv_plain64,
             "plain64be": iv_plain64be, "benbi": iv_benbi, "null": iv_null}


class DmCrypt:
    def __init__(self, spec, key, sectorsize=512, iv_large=False):
        parts = spec.split("-")
        if len(parts) == 2:
            parts.append("")
        self.cipher, self.chain, ivmode = parts
        self.ivopt = None
        if ":" in ivmode:
            ivmode, self.ivopt = ivmode.split(":", 1)
        self.ivmode = ivmode
        self.key = key
        self.ss = sectorsize
        self.iv_large = iv_large
        self.bs = block_size(self.cipher)
        self.ivlen = 0 if self.chain == "ecb" else (16 if self.chain == "xts" else self.bs)
        if ivmode == "essiv":
            # salt = H(key); the IV cipher is the data cipher keyed with the salt
            salt = hashlib.new(self.ivopt, key).digest()
            self.essiv = Cipher(algorithms.AES(salt), modes.ECB()).encryptor()

    def iv(self, sector):
        if self.ivlen == 0:
            return None
        if self.ivmode == "essiv":
            return self.essiv.update(iv_plain64(sector, self.ivlen, self.bs))
        return DM_IVGENS[self.ivmode](sector, self.ivlen, self.bs)

    def _run(self, offset, data, enc):
        assert offset % self.ss == 0 and len(data) % self.ss == 0
        out = bytearray()
        for s in range(len(data) // self.ss):
            off = offset + s * self.ss
            sector = off // self.ss if self.iv_large else off >> 9
            chunk = data[s * self.ss:(s + 1) * self.ss]
            iv = self.iv(sector)
            out += crypt(self.cipher, self.chain, self.key, iv, chunk, enc)
        return bytes(out)

    def encrypt(self, offset, pt):
        return self._run(offset, pt, True)

    def decrypt(self, offset, ct):
        return self._run(offset, ct, False)


# --- vectors ---------------------------------------------------------------

def det_bytes(label, n):
    """Deterministic test material: SHA-512 in counter mode over a label."""
    out, i = b"", 0
    while len(out) < n:
        out += hashlib.sha512(b"cryptobench-geli-ref|%s|%d" % (label.encode(), i)).digest()
        i += 1
    return out[:n]


def wrap(name, data):
    return "%s = %s" % (name, data.hex())


SRC = ("tests/data/geli_ref.py: independent Python model of %s "
       "(python3-cryptography + hashlib), not cryptobench")


def geli_vectors():
    recs = []
    mkey = det_bytes("mkey", 128)
    cases = []
    for e, l in (("aes-xts", 128), ("aes-xts", 256), ("aes-cbc", 128),
                 ("aes-cbc", 192), ("aes-cbc", 256), ("camellia", 128),
                 ("camellia", 256), ("blowfish", 128), ("blowfish", 448),
                 ("3des", 192), ("null", 0)):
        cases.append((e, l, None, 4096, 0, 1))
    for a in sorted(GELI_AALGS):
        cases.append(("aes-xts", 256, a, 4096, 0, 1))
        cases.append(("null", 256, a, 4096, 0, 1))
    for e in ("aes-cbc", "camellia", "blowfish", "3des"):
        cases.append((e, 0, "hmac/sha256", 4096, 0, 1))
    # key switching: the last sector of key 0 and the first of key 1
    cases.append(("aes-xts", 128, None, 512, (1 << 29) - 512, 2))
    cases.append(("aes-cbc", 256, None, 4096, (1 << 32) - 4096, 2))
    cases.append(("aes-xts", 256, "hmac/sha1", 4096, 116508 * 4096, 2))
    cases.append(("aes-cbc", 128, "hmac/md5", 512, (524288 - 1) * 512, 2))
    for (e, l, a, ss, off, nsec) in cases:
        g = Geli(e, l, a, ss, mkey)
        pt = det_bytes("pt|%s|%d|%s|%d" % (e, l, a, off), ss * nsec)
        disk = g.encrypt(off, pt)
        assert g.decrypt(off, disk) == (pt, [])
        r = ["alg = geli", "mode = " + e]
        if l:
            r.append("key_bits = %d" % l)
        if a:
            r.append("auth = " + a)
        r += ["sector_size = %d" % ss, "offset = %d" % off, wrap("mkey", mkey),
              wrap("pt", pt), wrap("disk", disk),
              "source = " + SRC % "FreeBSD geli v7"]
        recs.append(r)
    # negative: one flipped byte in an authenticated image must be rejected
    g = Geli("aes-xts", 128, "hmac/sha256", 4096, mkey)
    pt = det_bytes("neg", 4096)
    disk = bytearray(g.encrypt(0, pt))
    disk[1000] ^= 1
    recs.append(["alg = geli", "mode = aes-xts", "key_bits = 128",
                 "auth = hmac/sha256", "sector_size = 4096", "offset = 0",
                 wrap("mkey", mkey), wrap("pt", pt), wrap("disk", bytes(disk)),
                 "expect = fail",
                 "source = " + SRC % "FreeBSD geli v7" + "; byte 1000 flipped"])
    return recs


def dm_vectors():
    recs = []
    cases = [
        ("aes-cbc-plain", 16, 512, 0, 4),
        ("aes-cbc-plain", 16, 512, (1 << 41) + 512, 2),    # le32 wraps
        ("aes-cbc-plain64", 32, 512, (1 << 41) + 512, 2),
        ("aes-cbc-plain64be", 24, 512, 4096, 2),
        ("aes-cbc-essiv:sha256", 16, 512, 0, 4),
        ("aes-cbc-essiv:sha256", 32, 512, 1 << 20, 4),
        ("aes-cbc-essiv:sha256", 32, 4096, 8192, 2),
        ("aes-cbc-benbi", 16, 512, 1024, 2),
        ("aes-cbc-null", 16, 512, 0, 2),
        ("aes-xts-plain64", 32, 512, 0, 4),
        ("aes-xts-plain64", 64, 4096, 1 << 30, 2),
        ("aes-xts-plain", 64, 512, 512, 2),
        ("aes-xts-benbi", 32, 512, 512, 2),
        ("camellia-cbc-plain64", 32, 512, 0, 2),
        ("blowfish-cbc-plain64", 16, 512, 0, 2),
        ("blowfish-cbc-benbi", 16, 512, 512, 2),
        ("des3_ede-cbc-plain64be", 24, 512, 0, 2),
        ("cipher_null-ecb", 0, 512, 0, 1),
    ]
    for spec, klen, ss, off, nsec in cases:
        key = det_bytes("dmkey|%s|%d" % (spec, klen), klen)
        for large in ((False, True) if ss > 512 else (False,)):
            d = DmCrypt(spec, key, ss, large)
            pt = det_bytes("dmpt|%s|%d|%d" % (spec, off, large), ss * nsec)
            ct = d.encrypt(off, pt)
            assert d.decrypt(off, ct) == pt
            r = ["alg = dm-crypt", "mode = " + spec]
            if key:
                r.append(wrap("key", key))
            r += ["sector_size = %d" % ss]
            if large:
                r.append("iv_large_sectors = 1")
            r += ["offset = %d" % off, wrap("pt", pt), wrap("disk", ct),
                  "source = " + SRC % "Linux dm-crypt IV generators"]
            recs.append(r)
    return recs


def emit(recs, title):
    print("# %s" % title)
    print("# Generated by tests/data/geli_ref.py (`geli_ref.py vectors ...`), an")
    print("# independent Python model (python3-cryptography + hashlib) written")
    print("# from docs/dd.md and the FreeBSD/Linux sources cited there; it does")
    print("# not call cryptobench.  Test material is SHA-512 of fixed labels.")
    for r in recs:
        print()
        print("\n".join(r))


def main(argv=None):
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("geli")
    g.add_argument("-e", required=True)
    g.add_argument("-l", type=int, default=0)
    g.add_argument("-a")
    g.add_argument("-s", type=int, default=4096)
    g.add_argument("-K", required=True)
    g.add_argument("--offset", type=int, default=0)
    g.add_argument("--decrypt", action="store_true")
    d = sub.add_parser("dmcrypt")
    d.add_argument("-e", required=True)
    d.add_argument("-s", type=int, default=512)
    d.add_argument("-K", required=True)
    d.add_argument("--offset", type=int, default=0)
    d.add_argument("--iv-large-sectors", action="store_true")
    d.add_argument("--decrypt", action="store_true")
    for x in (g, d):
        x.add_argument("--in", dest="inp", help="input file (default stdin)")
        x.add_argument("--out", help="output file (default stdout)")
    v = sub.add_parser("vectors")
    v.add_argument("which", choices=("geli", "dmcrypt"))
    b = sub.add_parser("batch", help="run each line of FILE as arguments")
    b.add_argument("file")
    a = ap.parse_args(argv)
    if a.cmd == "batch":
        rc = 0
        for line in open(a.file):
            if line.split() and not line.startswith("#"):
                rc |= main(line.split())
        return rc
    if a.cmd == "vectors":
        if a.which == "geli":
            emit(geli_vectors(), "FreeBSD geli v7 sector transforms: master key, "
                 "offset, plaintext -> disk bytes")
        else:
            emit(dm_vectors(), "Linux dm-crypt IV generators: key, offset, "
                 "plaintext -> disk bytes")
        return 0
    key = open(a.K, "rb").read()
    data = open(a.inp, "rb").read() if a.inp else sys.stdin.buffer.read()
    ss = a.s
    if a.cmd == "geli" and not a.decrypt:
        data += b"\0" * (-len(data) % ss)    # dd pads the last record
    rc = 0
    if a.cmd == "geli":
        x = Geli(a.e, a.l, a.a, a.s, key)
        if a.decrypt:
            out, bad = x.decrypt(a.offset, data)
            for off, n in bad:
                print("%d bytes corrupted at offset %d" % (n, off), file=sys.stderr)
            rc = 1 if bad else 0
        else:
            out = x.encrypt(a.offset, data)
    else:
        if not a.decrypt:
            data += b"\0" * (-len(data) % ss)
        x = DmCrypt(a.e, key, a.s, a.iv_large_sectors)
        out = (x.decrypt if a.decrypt else x.encrypt)(a.offset, data)
    if a.out:
        with open(a.out, "wb") as f:
            f.write(out)
    else:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    return rc


if __name__ == "__main__":
    sys.exit(main())
