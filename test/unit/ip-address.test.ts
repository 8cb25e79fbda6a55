import { describe, expect, it } from "vitest";
import { type ConfigError, loadConfig } from "../../src/config/load.ts";
import { canonicalAddress, createAddressMatcher, isAddressOrRange, rateLimitBucket } from "../../src/ip-address.ts";

describe("canonicalAddress", () => {
  it("turns IPv4-mapped IPv6 in every spelling into the IPv4 address", () => {
    for (const mapped of [
      "::ffff:203.0.113.7",
      "::FFFF:cb00:7107",
      "0:0:0:0:0:ffff:203.0.113.7",
      "[::ffff:203.0.113.7]:443",
    ]) {
      expect(canonicalAddress(mapped)).toBe("203.0.113.7");
    }
  });

  it("strips what proxies add around an address: brackets, ports, zone ids", () => {
    expect(canonicalAddress(" 203.0.113.7:8080 ")).toBe("203.0.113.7");
    expect(canonicalAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(canonicalAddress("fe80::1%eth0")).toBe("fe80::1");
  });

  it("refuses what is not an address", () => {
    for (const junk of ["unknown", "", "_hidden", "203.0.113", "203.0.113.7.1", "2001:db8::g", "::ffff:999.0.0.1"])
      expect(canonicalAddress(junk)).toBeNull();
  });

  it("keeps other IPv6 addresses (an IPv4 tail outside ::ffff:0:0/96 is not IPv4)", () => {
    expect(canonicalAddress("2001:db8::ffff:1.2.3.4")).toBe("2001:db8::ffff:1.2.3.4");
    expect(canonicalAddress("::1")).toBe("::1");
  });
});

describe("rateLimitBucket", () => {
  it("counts IPv4 per address, mapped or not", () => {
    expect(rateLimitBucket("203.0.113.7", 64)).toBe("203.0.113.7");
    expect(rateLimitBucket("::ffff:203.0.113.7", 64)).toBe("203.0.113.7");
  });

  it("counts IPv6 per network of the configured prefix", () => {
    expect(rateLimitBucket("2001:db8:1:2:3:4:5:6", 64)).toBe(rateLimitBucket("2001:db8:1:2::ffff", 64));
    expect(rateLimitBucket("2001:db8:1:2::1", 64)).not.toBe(rateLimitBucket("2001:db8:1:3::1", 64));
    expect(rateLimitBucket("2001:db8:1:2::1", 48)).toBe(rateLimitBucket("2001:db8:1:ffff::1", 48));
    // Prefixes that are not a multiple of 16 mask inside a group.
    expect(rateLimitBucket("2001:db8:1:ff::1", 56)).toBe(rateLimitBucket("2001:db8:1:0::1", 56));
    expect(rateLimitBucket("2001:db8:1:100::1", 56)).not.toBe(rateLimitBucket("2001:db8:1:0::1", 56));
    expect(rateLimitBucket("2001:db8::1", 128)).not.toBe(rateLimitBucket("2001:db8::2", 128));
  });
});

describe("trusted proxy lists", () => {
  it("matches addresses and CIDR ranges of both families, mapped addresses included", () => {
    const isTrusted = createAddressMatcher(["10.0.0.0/8", "192.0.2.1", "fd00::/8"]);
    expect([
      isTrusted("10.200.3.4"),
      isTrusted("::ffff:10.200.3.4"),
      isTrusted("192.0.2.1"),
      isTrusted("fd12::1"),
    ]).toEqual([true, true, true, true]);
    expect([isTrusted("11.0.0.1"), isTrusted("192.0.2.2"), isTrusted("fe80::1"), isTrusted("garbage")]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(createAddressMatcher([])("10.0.0.1")).toBe(false);
  });

  it("accepts only addresses and ranges", () => {
    expect(["10.0.0.0/8", "192.0.2.1", "::1", "fd00::/8", "0.0.0.0/0"].every(isAddressOrRange)).toBe(true);
    expect(["proxy.local", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/8/8", "fd00::/129", "*"].some(isAddressOrRange)).toBe(
      false,
    );
  });

  it("refuses a bad AUTH_TRUSTED_PROXIES entry at start-up with one line naming it", () => {
    let problems: string[] = [];
    try {
      loadConfig({ env: { AUTH_TRUSTED_PROXIES: "10.0.0.1, proxy.internal" } });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/^AUTH_TRUSTED_PROXIES: "proxy\.internal" is not an IPv4\/IPv6 address or CIDR range/),
    ]);
    expect(loadConfig({ env: { AUTH_TRUSTED_PROXIES: "10.0.0.1, fd00::/8" } }).trustedProxies).toEqual([
      "10.0.0.1",
      "fd00::/8",
    ]);
  });
});
