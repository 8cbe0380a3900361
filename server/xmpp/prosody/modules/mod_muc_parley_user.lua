-- Adds <user xmlns='https://talky.io/ns/core' sid='<nick>' rid='<room id>' type='<type>'>customerData
-- JSON</user> to every occupant presence the room sends (PROTOCOL.md): SimpleWebRTC 1.30.3 cannot join
-- without it. `type` and customerData come from the occupant's token claims (mod_auth_parley_token).
--
-- The room remembers each occupant's identity from their presences while the sender's session holds
-- its claims: the leave presence of a disconnect reaches the room after the session has been wiped,
-- and a dropped connection ends in a presence the server makes up.

local st = require "util.stanza";
local json = require "util.json";
local uuid = require "util.uuid";
local jid_bare = require "util.jid".bare;
local jid_resource = require "util.jid".resource;

local xmlns_talky = "https://talky.io/ns/core";
local json_array_mt = getmetatable(json.decode("[]"));
local guest_identity = { type = "guest", customer_data = "{}" };

-- Room state lives in room._data, which survives the eviction of a live room to storage; the room's
-- destruction ends it.
local function room_id(room)
	local rid = room._data.parley_rid;
	if not rid then
		rid = uuid.generate();
		room._data.parley_rid = rid;
	end
	return rid;
end

-- Identities by occupant (in-room) JID.
local function identities(room)
	local by_nick = room._data.parley_identities;
	if not by_nick then
		by_nick = {};
		room._data.parley_identities = by_nick;
	end
	return by_nick;
end

-- nil when the session holds no claims (it has been wiped after a disconnect).
local function identity_of_session(session)
	local claims = session and session.parley_claims;
	if not claims then
		return nil;
	end
	local customer_data = claims.customerData;
	local is_object = type(customer_data) == "table" and getmetatable(customer_data) ~= json_array_mt;
	return {
		type = type(claims.type) == "string" and claims.type ~= "" and claims.type or "guest";
		customer_data = is_object and json.encode(customer_data) or "{}";
	};
end

-- Replaces any <user> in `stanza` (a client could forge one) with the server's.
local function set_user_element(stanza, room, nick)
	local identity = identities(room)[nick] or guest_identity;
	stanza:remove_children("user", xmlns_talky);
	stanza:tag("user", { xmlns = xmlns_talky, sid = jid_resource(nick), rid = room_id(room), type = identity.type })
		:text(identity.customer_data):up();
end

local function on_presence_to_occupant(event)
	local room, occupant = event.room, event.dest_occupant or event.occupant;
	local identity = identity_of_session(event.origin);
	-- Only the occupant's own user may set it: joining under someone else's nick fails later, on conflict.
	if identity and jid_bare(event.stanza.attr.from) == occupant.bare_jid then
		identities(room)[occupant.nick] = identity;
	end
	-- The room stores this presence and re-sends it to later joiners: it must not carry a forged <user>.
	set_user_element(event.stanza, room, occupant.nick);
end

-- Low priority: only presences that the room's own checks (password, bans, limits) let through.
module:hook("muc-occupant-pre-join", on_presence_to_occupant, -100);
module:hook("muc-occupant-pre-change", on_presence_to_occupant, -100);
module:hook("muc-occupant-pre-leave", on_presence_to_occupant, -100);

module:hook("muc-build-occupant-presence", function(event)
	if event.occupant then -- else a presence about a registered nick that is not in the room
		set_user_element(event.stanza, event.room, event.occupant.nick);
	end
end);

-- Fired after the leave presence has gone out.
module:hook("muc-occupant-left", function(event)
	identities(event.room)[event.occupant.nick] = nil;
end);
