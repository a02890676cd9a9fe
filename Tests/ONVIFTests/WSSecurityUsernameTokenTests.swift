import XCTest
@testable import ONVIF

final class WSSecurityUsernameTokenTests: XCTestCase {
    /// ONVIF Application Programmer's Guide §6.1.1.3 example (also cross-checked with Python's hashlib):
    /// nonce LKqI6G/AikKCQrN0zqZFlg==, created 2010-09-16T07:50:45Z, password "userpassword".
    func testDigestMatchesTheONVIFExample() {
        let nonce = [UInt8](Data(base64Encoded: "LKqI6G/AikKCQrN0zqZFlg==")!)
        XCTAssertEqual(WSSecurityUsernameToken.digest(nonce: nonce, created: "2010-09-16T07:50:45Z", password: "userpassword"),
                       "tuOSpGlFlIXsozq4HFNeeGeFLEI=")
        let token = WSSecurityUsernameToken(username: "user", password: "userpassword", nonce: nonce, created: "2010-09-16T07:50:45Z")
        XCTAssertEqual(token.passwordDigest, "tuOSpGlFlIXsozq4HFNeeGeFLEI=")
        XCTAssertTrue(token.headerXML.contains("LKqI6G/AikKCQrN0zqZFlg=="))
        XCTAssertFalse(token.headerXML.contains("userpassword"), "the password itself is never sent")
    }

    func testCreatedIsCorrectedByTheCameraClockOffset() {
        let now = Date(timeIntervalSince1970: 1_284_623_445)  // 2010-09-16T07:50:45Z
        XCTAssertEqual(WSSecurityUsernameToken.createdString(now), "2010-09-16T07:50:45Z")
        let token = WSSecurityUsernameToken(username: "u", password: "p", clockOffset: 3600, now: now)
        XCTAssertEqual(token.created, "2010-09-16T08:50:45Z")
        XCTAssertEqual(token.nonce.count, 20)
        XCTAssertNotEqual(token.nonce, WSSecurityUsernameToken(username: "u", password: "p", clockOffset: 0).nonce)
    }
}
