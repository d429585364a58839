-- The desk's snapshot says whether a special price's document was checked by staff (docs/decisions/0068,
-- later): a decision on a proof moves the snapshot's version as a registration's write does, so a desk
-- that kept the old answer downloads the new one instead of a 304. A proof not yet taken by a
-- registration belongs to no event and adds nothing.
CREATE TRIGGER "price_rule_proofs_desk_version" AFTER INSERT OR UPDATE OR DELETE ON "price_rule_proofs"
  FOR EACH ROW EXECUTE FUNCTION "event_desk_version_bump"();
