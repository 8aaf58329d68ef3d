-- game_engine_view gains the two fields the engine's game view gained for the game screen (engine/schema/views.ts,
-- issue #10): max_number_of_characters (Assemble moments only, the banner 'selected / maxRequired'; null elsewhere)
-- and card_images (the picture of each card by its id: the run's characters and items from their media rows, the
-- current moment's opponents from their blueprint character's pictures, then its team pictures). Paths are stored
-- ones, as in the view's other image columns; the server's route resolves them to public URLs.
-- CREATE OR REPLACE keeps the view's grants; it replaces its options, so security_invoker is given again (0004_rls).
DO $migration$
BEGIN

CREATE OR REPLACE VIEW game_engine_view WITH (security_invoker = true) AS
SELECT
  ps.id AS player_story_id,
  ps.user_id,
  ps.blueprint_story_id,
  pm.id AS player_moment_id,
  pm.blueprint_moment_id,
  bm.blueprint_place_id,
  bm.moment_type,
  bm.name AS moment_name,
  bm.moment_date,
  ps.language,
  ps.loop_rank,
  ps.loop_number,
  ps.loop_current_number_of_interactions,
  ps.loop_max_number_of_interactions,
  ps.loop_status,
  (SELECT min(r.loop_rank) FROM player_stories r
    WHERE r.user_id = ps.user_id AND r.blueprint_story_id = ps.blueprint_story_id) AS best_rank,
  bs.background_rgba_color,
  bs.text_rgba_color,
  bs.control_rgba_color,
  COALESCE((SELECT jsonb_agg(jsonb_build_object('media_url', x.media_url, 'media_kind', x.media_kind) ORDER BY x.position)
    FROM blueprint_place_medias x WHERE x.blueprint_place_id = bm.blueprint_place_id), '[]'::jsonb) AS place_image_details,
  COALESCE(bm.media, '[]'::jsonb) AS moment_image_details,
  COALESCE((SELECT jsonb_agg(jsonb_build_object('media_url', x.media_url, 'media_kind', x.media_kind) ORDER BY x.position)
    FROM blueprint_character_medias x WHERE x.blueprint_character_id = bm.blueprint_character_id), '[]'::jsonb)
    AS character_image_details,
  COALESCE(bm.do_not_display_character, false) AS do_not_display_character,
  COALESCE((SELECT jsonb_agg(jsonb_build_object(
      'opponent_id', o.id, 'opponent_name', o.name,
      'opponent_current_health', o.current_health, 'opponent_base_health', o.base_health) ORDER BY o.name, o.id)
    FROM player_opponents o WHERE o.player_moment_id = pm.id), '[]'::jsonb) AS battle_opponent_characters,
  COALESCE((SELECT jsonb_agg(jsonb_build_object(
      'character_id', c.id,
      'blueprint_character_id', c.blueprint_character_id,
      'character_name', c.name,
      'character_properties', c.properties,
      'character_current_attack', c.current_attack,
      'character_base_attack', c.current_attack,
      'character_current_health', c.current_health,
      'character_base_health', c.max_health,
      'character_card_type', c.card_type,
      'is_selected_in_assemble', c.is_selected_in_assemble,
      'equipped_items', COALESCE((SELECT jsonb_agg(jsonb_build_object(
          'id', i.id, 'blueprint_item_id', i.blueprint_item_id, 'name', i.name, 'description', i.description,
          'attack_bonus', i.attack_bonus, 'defense_bonus', i.defense_bonus, 'properties', i.properties,
          'rarity', i.rarity) ORDER BY i.created_at, i.id)
        FROM player_character_items l JOIN player_items i ON i.id = l.player_item_id
        WHERE l.player_character_id = c.id AND l.is_equipped), '[]'::jsonb)
    ) ORDER BY c.created_at, c.id)
    FROM player_characters c WHERE c.player_story_id = ps.id), '[]'::jsonb) AS enrolled_characters,
  COALESCE((SELECT jsonb_agg(jsonb_build_object(
      'available_item_id', i.id, 'available_item_name', i.name, 'available_item_properties', i.properties,
      'available_item_attack_bonus', i.attack_bonus, 'available_item_defense_bonus', i.defense_bonus)
      ORDER BY i.created_at, i.id)
    FROM player_items i
    WHERE i.player_story_id = ps.id
      AND NOT EXISTS (SELECT 1 FROM player_character_items l WHERE l.player_item_id = i.id AND l.is_equipped)),
    '[]'::jsonb) AS player_items,
  (pm.completed_at IS NOT NULL) AS is_moment_complete,
  pm.battle_phase,
  CASE WHEN bm.moment_type = 'Assemble' THEN bm.max_number_of_characters END AS max_number_of_characters,
  COALESCE((SELECT jsonb_object_agg(card.id, card.media_url) FROM (
      (SELECT DISTINCT ON (m.player_character_id) m.player_character_id::text AS id, m.media_url
        FROM player_character_medias m JOIN player_characters c ON c.id = m.player_character_id
        WHERE c.player_story_id = ps.id AND m.media_kind = 'image'
        ORDER BY m.player_character_id, m.created_at, m.id)
      UNION ALL
      (SELECT DISTINCT ON (m.player_item_id) m.player_item_id::text AS id, m.media_url
        FROM player_item_medias m JOIN player_items i ON i.id = m.player_item_id
        WHERE i.player_story_id = ps.id AND m.media_kind = 'image'
        ORDER BY m.player_item_id, m.created_at, m.id)
      UNION ALL
      (SELECT DISTINCT ON (o.id) o.id::text AS id, x.media_url
        FROM player_opponents o JOIN (
          SELECT blueprint_character_id, media_url, media_kind, 0 AS team, position FROM blueprint_character_medias
          UNION ALL
          SELECT blueprint_character_id, media_url, media_kind, 1 AS team, position FROM blueprint_character_team_medias
        ) x ON x.blueprint_character_id = o.blueprint_character_id
        WHERE o.player_moment_id = pm.id AND x.media_kind = 'image'
        ORDER BY o.id, x.team, x.position)
    ) card), '{}'::jsonb) AS card_images
FROM player_stories ps
JOIN blueprint_stories bs ON bs.id = ps.blueprint_story_id
LEFT JOIN player_moments pm ON pm.id = ps.current_player_moment_id
LEFT JOIN blueprint_moments bm ON bm.id = pm.blueprint_moment_id;

END
$migration$;
