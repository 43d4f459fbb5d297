package io.upic.liftride.server.operations;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OperatorsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "127.0.0.1",
                "127.9.9.9",
                "::1",
                "10.0.1.11",
                "172.16.0.1",
                "172.31.255.255",
                "192.168.1.2",
                "169.254.169.254",
                "fd12:3456::1",
                "fc00::1",
                "fe80::1",
                "0:0:0:0:0:0:0:1"
            })
    void loopbackPrivateAndLinkLocalAddressesAreTheOperators(String address) {
        assertTrue(Operators.isPrivate(address), address);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "8.8.8.8",
                "172.32.0.1",
                "172.15.255.255",
                "192.169.0.1",
                "11.0.0.1",
                "2001:db8::1",
                "fbff::1",
                "localhost",
                "example.com",
                "",
                "::ffff:8.8.8.8"
            })
    void publicAddressesAndNamesAreNot(String address) {
        assertFalse(Operators.isPrivate(address), address);
    }
}
