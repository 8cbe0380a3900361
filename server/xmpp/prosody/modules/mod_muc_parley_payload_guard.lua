-- Validates, before the MUC relays them, the payloads that other occupants' clients parse: JSON
-- commands (urn:xmpp:json:0, PROTOCOL.md), Jingle (XEP-0166), chat states (XEP-0085) and real-time
-- text (XEP-0301), in groupchat and private messages and in IQs to occupants. StanzaJS (inside
-- SimpleWebRTC 1.30.3 and plain clients) runs JSON.parse on a <json> element's text inside its
-- stream parser: one payload that is not JSON throws there and the client stops reading the room.
-- A stanza that fails is bounced to its sender (modify/bad-request, with a text saying what was
-- wrong), never reaches the room, and is counted: `rejected_payloads` (read by mod_parley_stats,
-- summed over the hosts that load the module).
--
-- Loaded on the VirtualHost too, for the same checks on messages and IQs a client sends straight
-- to another user: a room's moderators see its occupants' real JIDs, so the room is no wall.
--
-- Bounds come from the config (prosodyConfig.ts renders them from src/protocol/constants.ts).

local st = require "util.stanza";

local xmlns_json = "urn:xmpp:json:0";
local xmlns_json_msg = "urn:xmpp:json-msg:0";
local xmlns_jingle = "urn:xmpp:jingle:1";
local xmlns_chatstates = "http://jabber.org/protocol/chatstates";
local xmlns_rtt = "urn:xmpp:rtt:0";

local json_bytes = module:get_option_number("parley_payload_json_bytes", 64 * 1024);
local json_depth = module:get_option_number("parley_payload_json_depth", 64);
local json_payloads = module:get_option_number("parley_payload_json_per_message", 16);
local datatype_length = module:get_option_number("parley_payload_datatype_length", 256);
local rtt_actions = module:get_option_number("parley_payload_rtt_actions", 1000);
local rtt_text_bytes = module:get_option_number("parley_payload_rtt_text_bytes", 64 * 1024);
local jingle_bytes = module:get_option_number("parley_payload_jingle_bytes", 64 * 1024);
local jingle_contents = module:get_option_number("parley_payload_jingle_contents", 32);
local id_length = module:get_option_number("parley_payload_id_length", 256);
-- How deep, and how many elements, a message's walk for <json> elements goes (nested_json_error).
local element_depth = module:get_option_number("parley_payload_element_depth", 32);
local element_count = module:get_option_number("parley_payload_elements", 4096);

-- Bounced stanzas since start; a global of this module, so that mod_parley_stats can read it.
rejected_payloads = 0;

local function set_of(list)
	local set = {};
	for _, item in ipairs(list) do set[item] = true; end
	return set;
end

local chat_states = set_of { "active", "composing", "paused", "inactive", "gone" };
local rtt_events = set_of { "new", "reset", "edit", "init", "cancel" };
local rtt_action_names = set_of { "t", "e", "w" };
local jingle_actions = set_of {
	"content-accept", "content-add", "content-modify", "content-reject", "content-remove",
	"description-info", "security-info", "session-accept", "session-info", "session-initiate",
	"session-terminate", "transport-accept", "transport-info", "transport-reject", "transport-replace",
};
local jingle_creators = set_of { "initiator", "responder" };
local jingle_senders = set_of { "both", "initiator", "none", "responder" };
local json_escapes = set_of { '"', "\\", "/", "b", "f", "n", "r", "t" };

-- Reads the JSON string whose opening quote is at `pos`; returns the position after it, or nil and why not.
local function skip_json_string(text, pos)
	pos = pos + 1;
	while true do
		local special = text:find("[%z\1-\31\"\\]", pos);
		if not special then return nil, "a string is not closed"; end
		local char = text:sub(special, special);
		if char == '"' then return special + 1; end
		if char ~= "\\" then return nil, "a string holds a raw control character"; end
		local escaped = text:sub(special + 1, special + 1);
		if escaped == "u" then
			if not text:find("^%x%x%x%x", special + 2) then return nil, "a \\u escape is not followed by four hex digits"; end
			pos = special + 6;
		elseif json_escapes[escaped] then
			pos = special + 2;
		else
			return nil, "a string holds an unknown escape";
		end
	end
end

-- Reads the JSON number at `pos` (RFC 8259: no leading zeros, digits after '.' and 'e').
local function skip_json_number(text, pos)
	local _, int_end, digits = text:find("^-?(%d+)", pos);
	if not int_end or (#digits > 1 and digits:sub(1, 1) == "0") then return nil, "a value is not valid JSON"; end
	pos = int_end + 1;
	if text:sub(pos, pos) == "." then
		local _, frac_end = text:find("^%d+", pos + 1);
		if not frac_end then return nil, "a number has no digits after its point"; end
		pos = frac_end + 1;
	end
	if text:find("^[eE]", pos) then
		local _, exp_end = text:find("^[+-]?%d+", pos + 1);
		if not exp_end then return nil, "a number has no digits in its exponent"; end
		pos = exp_end + 1;
	end
	return pos;
end

-- nil when `text` is one JSON text as RFC 8259 (and so JavaScript's JSON.parse) reads it, else why
-- not. Iterative, so that nesting costs no Lua stack; nesting deeper than `json_depth` is refused.
local function json_syntax_error(text)
	local pos, stack, expect = 1, {}, "value";
	while true do
		pos = text:find("[^ \t\r\n]", pos) or #text + 1;
		local char = text:sub(pos, pos);
		local top = stack[#stack];
		local err;
		if char == "" and (top or expect ~= "after") then
			return pos == 1 and "it holds no JSON value" or "it ends before its value is complete";
		elseif expect == "after" then
			if not top then
				return pos <= #text and "there is more after the JSON value" or nil;
			elseif char == "," then
				pos, expect = pos + 1, top == "{" and "key" or "value";
			elseif (char == "}" and top == "{") or (char == "]" and top == "[") then
				pos, stack[#stack] = pos + 1, nil;
			else
				return "a ',' or a closing bracket is missing";
			end
		elseif expect == "colon" then
			if char ~= ":" then return "a ':' is missing after a key"; end
			pos, expect = pos + 1, "value";
		elseif expect == "key" or expect == "key-or-close" then
			if char == "}" and expect == "key-or-close" then
				pos, stack[#stack], expect = pos + 1, nil, "after";
			elseif char == '"' then
				pos, err = skip_json_string(text, pos);
				expect = "colon";
			else
				return "an object key is not a string";
			end
		elseif char == "]" and expect == "value-or-close" then
			pos, stack[#stack], expect = pos + 1, nil, "after";
		elseif char == "{" or char == "[" then
			if #stack >= json_depth then return ("it is nested deeper than %d levels"):format(json_depth); end
			stack[#stack + 1] = char;
			pos, expect = pos + 1, char == "{" and "key-or-close" or "value-or-close";
		elseif char == '"' then
			pos, err = skip_json_string(text, pos);
			expect = "after";
		elseif text:find("^true", pos) or text:find("^null", pos) then
			pos, expect = pos + 4, "after";
		elseif text:find("^false", pos) then
			pos, expect = pos + 5, "after";
		else
			pos, err = skip_json_number(text, pos);
			expect = "after";
		end
		if not pos then return err; end
	end
end

local function json_element_error(json)
	-- JSON is text: an element inside is no payload any sender means (and get_text gives nil for it).
	if #json.tags > 0 then return "a JSON payload is not valid JSON: it holds an element"; end
	local text = json:get_text();
	if #text > json_bytes then return ("a JSON payload is larger than %d bytes"):format(json_bytes); end
	local err = json_syntax_error(text);
	return err and ("a JSON payload is not valid JSON: " .. err) or nil;
end

local function is_count(value, allow_absent)
	if value == nil then return allow_absent; end
	return value:find("^%d+$") ~= nil and #value <= 10;
end

-- nil when the attribute is 1 to `max` bytes long, else "<what> needs a <attribute> of 1 to <max> characters".
local function attribute_error(element, attribute, max, what)
	local value = element.attr[attribute];
	if type(value) ~= "string" or value == "" or #value > max then
		return ("%s needs a %s of 1 to %d characters"):format(what, attribute, max);
	end
end

-- Every <json> in urn:xmpp:json:0 at any depth: StanzaJS parses it wherever it knows the element's
-- parent (a <payload>, a forwarded <message>, a pubsub <item>, ...). The walk is bounded: a stanza
-- nested deeper than `element_depth`, or with more than `element_count` elements, is bounced.
-- Returns the first error, else nil and the number of <json> elements seen.
local function nested_json_error(element, depth, seen)
	for _, child in ipairs(element.tags) do
		seen.elements = seen.elements + 1;
		if seen.elements > element_count then return ("a message holds more than %d elements"):format(element_count); end
		if child.name == "json" and child.attr.xmlns == xmlns_json then
			seen.json = seen.json + 1;
			local err = json_element_error(child);
			if err then return err; end
		elseif #child.tags > 0 then
			if depth >= element_depth then return ("a message nests elements more than %d deep"):format(element_depth); end
			local err = nested_json_error(child, depth + 1, seen);
			if err then return err; end
		end
	end
end

local function json_error(message)
	local payloads = 0;
	for payload in message:childtags("payload", xmlns_json_msg) do
		payloads = payloads + 1;
		local err = attribute_error(payload, "datatype", datatype_length, "a JSON payload");
		if err then return err; end
	end
	local seen = { elements = 0, json = 0 };
	local err = nested_json_error(message, 1, seen);
	if err then return err; end
	-- A <payload> counts once, with or without its <json>.
	local bare = 0;
	for _ in message:childtags("json", xmlns_json) do bare = bare + 1; end
	if payloads + bare > json_payloads or seen.json > json_payloads then
		return ("a message carries more than %d JSON payloads"):format(json_payloads);
	end
end

local function chat_state_error(message)
	local states = 0;
	for child in message:childtags(nil, xmlns_chatstates) do
		states = states + 1;
		if not chat_states[child.name] then return ("'%s' is not a chat state"):format(child.name); end
	end
	if states > 1 then return "a message carries more than one chat state"; end
end

local function rtt_error(message)
	local rtts = 0;
	for rtt in message:childtags("rtt", xmlns_rtt) do
		rtts = rtts + 1;
		if rtt.attr.event ~= nil and not rtt_events[rtt.attr.event] then return "real-time text has an unknown event"; end
		if not is_count(rtt.attr.seq, true) then return "real-time text has a seq that is not a number"; end
		local actions, text_bytes = 0, 0;
		for action in rtt:childtags() do
			actions = actions + 1;
			if action.attr.xmlns ~= xmlns_rtt or not rtt_action_names[action.name] then
				return "real-time text holds an element that is not an action (t, e, w)";
			end
			if not is_count(action.attr.p, true) or not is_count(action.attr.n, true) then
				return "a real-time text action has a position or count that is not a number";
			end
			if #action.tags > 0 then return "a real-time text action holds an element"; end
			text_bytes = text_bytes + #action:get_text();
		end
		if actions > rtt_actions then return ("real-time text carries more than %d actions"):format(rtt_actions); end
		if text_bytes > rtt_text_bytes then return ("real-time text carries more than %d bytes of text"):format(rtt_text_bytes); end
	end
	if rtts > 1 then return "a message carries more than one real-time text element"; end
end

local function jingle_error(iq)
	local jingle = iq:get_child("jingle", xmlns_jingle);
	if not jingle then return; end
	if #tostring(iq) > jingle_bytes then return ("a Jingle request is larger than %d bytes"):format(jingle_bytes); end
	if not jingle_actions[jingle.attr.action] then return "a Jingle request has no known action"; end
	local sid_error = attribute_error(jingle, "sid", id_length, "a Jingle request");
	if sid_error then return sid_error; end
	local contents = 0;
	for content in jingle:childtags("content", xmlns_jingle) do
		contents = contents + 1;
		local name_error = attribute_error(content, "name", id_length, "a Jingle content");
		if name_error then return name_error; end
		if content.attr.creator ~= nil and not jingle_creators[content.attr.creator] then
			return "a Jingle content's creator is neither initiator nor responder";
		end
		if content.attr.senders ~= nil and not jingle_senders[content.attr.senders] then
			return "a Jingle content's senders is not both, initiator, responder or none";
		end
	end
	if contents > jingle_contents then return ("a Jingle request carries more than %d contents"):format(jingle_contents); end
end

local function message_error(message)
	return json_error(message) or chat_state_error(message) or rtt_error(message);
end

local function bounce(event, check)
	local origin, stanza = event.origin, event.stanza;
	local kind = stanza.attr.type;
	-- Errors and IQ results are answers: bouncing them would start a loop.
	if kind == "error" or (stanza.name == "iq" and kind ~= "get" and kind ~= "set") then return; end
	local reason = check(stanza);
	if not reason then return; end
	rejected_payloads = rejected_payloads + 1;
	module:log("info", "bounced a %s from %s to %s: %s (%d bounced so far)", stanza.name, stanza.attr.from, stanza.attr.to, reason, rejected_payloads);
	origin.send(st.error_reply(stanza, "modify", "bad-request", reason, module.host));
	return true;
end

-- On the MUC component every stanza to a room or an occupant is checked. On the VirtualHost only
-- what a user's client sends: the rest there is the server's own, among it what the MUC relays to
-- occupants, which was checked on its way into the room.
local clients_only = module:get_host_type() == "local";

local function guard(check)
	return function(event)
		if clients_only and event.origin.type ~= "c2s" then return; end
		return bounce(event, check);
	end
end

-- Above mod_muc's own handlers (priority -2) and mod_message's and mod_iq's (-1, 0), so nothing
-- malformed reaches a room or a user.
module:hook("message/bare", guard(message_error), 10);
module:hook("message/full", guard(message_error), 10);
module:hook("iq/full", guard(jingle_error), 10);
