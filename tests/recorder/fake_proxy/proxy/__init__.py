"""A small fake of the CacheRoute Proxy's pool and strategy interfaces, for
the recorder's tests. Written for lbsim; not CacheRoute code."""
