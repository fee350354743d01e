// Test-only self-signed certificate for hooks.example.com (P-256, valid to 2126), made with:
// openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout k.pem -out c.pem \
//   -days 36500 -subj "/CN=hooks.example.com" -addext "subjectAltName=DNS:hooks.example.com"
// Imported only by specs; it proves TLS keeps the host name as servername after the checked lookup.

export const TEST_TLS_HOST = 'hooks.example.com';

export const TEST_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgDEgeNuG2QK59h6tf
u+JoEuLLgp/vJqEB4scu86F0iLuhRANCAAT6bKEIg3mkw2Q62FhpeTY8liKn8pfL
o7UnP77a7s2ZPMJ1ofx4ypyvyQRA509EfTUAmyTH0NmcY6cjb30vMfeC
-----END PRIVATE KEY-----
`;

export const TEST_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBrTCCAVOgAwIBAgIUW/Vx9zHABmm02+ct0CSh0YAxcLQwCgYIKoZIzj0EAwIw
HDEaMBgGA1UEAwwRaG9va3MuZXhhbXBsZS5jb20wIBcNMjYxMTIzMDAwNjQ4WhgP
MjEyNjEwMzAwMDA2NDhaMBwxGjAYBgNVBAMMEWhvb2tzLmV4YW1wbGUuY29tMFkw
EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE+myhCIN5pMNkOthYaXk2PJYip/KXy6O1
Jz++2u7NmTzCdaH8eMqcr8kEQOdPRH01AJskx9DZnGOnI299LzH3gqNxMG8wHQYD
VR0OBBYEFDLrnQf3KtjaUAAbi54BSI+CYFNuMB8GA1UdIwQYMBaAFDLrnQf3Ktja
UAAbi54BSI+CYFNuMA8GA1UdEwEB/wQFMAMBAf8wHAYDVR0RBBUwE4IRaG9va3Mu
ZXhhbXBsZS5jb20wCgYIKoZIzj0EAwIDSAAwRQIgWB4KvOVMmwllNh04V/YNEI2m
rWkYhvnsyUcyquK4bBMCIQDaM5pa9AxaXU0s7zLp5rHmCpjEFddz0YjBCkKF/Zoi
Lg==
-----END CERTIFICATE-----
`;
