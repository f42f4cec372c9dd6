"""The table on the wire: strict msgpack, signed envelopes, message bodies, codecs.

Everything a peer sends is untrusted: these decode it strictly (one typed ``WireError``),
check the Ed25519 signatures, and give each message, action, deck message and transcript
record its canonical wire form.
"""
