-- Parley token login: the SASL PLAIN password is an HS256 JWT signed with the secret that the
-- config service shares with this server (server/auth/jwt.ts makes them).
-- No accounts are stored: a user exists while they hold a session opened with a valid token.
-- The verified claims stay on the session as `session.parley_claims` for other modules
-- (the MUC <user> element reads `type` and `customerData` from them).

local jwt = require "util.jwt";
local jid_prep = require "util.jid".prep;
local nodeprep = require "util.encodings".stringprep.nodeprep;
local new_sasl = require "util.sasl".new;

local host = module.host;
local host_sessions = prosody.hosts[host].sessions;
local secret = module:get_option_string("parley_token_secret");
assert(secret and secret ~= "", "parley_token_secret must be set for mod_auth_parley_token");

-- Returns the claims when `token` is a valid login for username@host, else nil and why not.
local function verify_login(username, token)
	-- util.jwt can raise on inputs that match its pattern but fail to decode.
	local decoded, valid, claims = pcall(jwt.verify, secret, token);
	if not decoded then
		return nil, "undecodable token";
	elseif not valid then
		return nil, claims; -- util.jwt's reason, e.g. "signature-mismatch"
	elseif type(claims) ~= "table" then
		return nil, "claims are not an object";
	elseif claims.exp == nil then
		return nil, "malformed token: it has no expiry (exp)";
	elseif type(claims.exp) ~= "number" then
		return nil, "malformed token: its expiry (exp) is not a number of seconds";
	elseif claims.exp <= os.time() then
		return nil, "token expired";
	elseif type(claims.sub) ~= "string" or nodeprep(claims.sub) ~= username then
		return nil, "sub is not the login username";
	elseif claims.jid ~= nil and (type(claims.jid) ~= "string" or jid_prep(claims.jid) ~= username .. "@" .. host) then
		return nil, "jid is not the login address";
	elseif claims.aud ~= nil then
		-- A token issued for another service (the relay's carries aud) is not a login.
		return nil, "token is for another audience";
	end
	return claims;
end

local provider = {};

function provider.test_password(username, token)
	return verify_login(username, token) ~= nil;
end

function provider.get_password()
	return nil, "Parley stores no passwords";
end

function provider.set_password()
	return nil, "Parley stores no passwords";
end

function provider.create_user()
	return nil, "Parley stores no accounts";
end

function provider.delete_user()
	return nil, "Parley stores no accounts";
end

function provider.user_exists(username)
	return host_sessions[username] ~= nil;
end

function provider.users()
	return next, host_sessions, nil;
end

function provider.get_sasl_handler(session)
	return new_sasl(host, {
		plain_test = function(_, username, token)
			local claims, reason = verify_login(username, token);
			if not claims then
				module:log("info", "Refused token login for %s: %s", username, reason);
				return false, true; -- not-authorized (the second value marks the account as enabled)
			end
			session.parley_claims = claims;
			return true, true;
		end;
	});
end

module:provides("auth", provider);
