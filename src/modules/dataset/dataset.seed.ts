// The sample datasets of decisions section 5: four synchronized datasets with three feature
// models each, owned alternately by the two seeded users (1 and 3 by user1, 2 and 4 by user2),
// and one superseded DOI. Built through the same service path as an upload.
import { projectPath } from '../../core/config.ts';
import type { ModuleContext } from '../../core/modules.ts';

const SEED_FOLDER = projectPath('src/modules/dataset/seed');

interface SampleModel {
  file: string;
  title: string;
  description: string;
  tags: string;
}

const SAMPLES: { owner: string; description: string; models: SampleModel[] }[] = [
  {
    owner: 'user1@example.com',
    description: 'Feature models of embedded and mobile devices: phones, in-car systems and drones, with hardware attributes and cross-tree constraints.',
    models: [
      { file: 'smartphone.uvl', title: 'Smartphone product line', description: 'Displays, batteries, radios and cameras of a phone family.', tags: 'mobile, hardware' },
      { file: 'car-infotainment.uvl', title: 'Car infotainment', description: 'Head units, audio, navigation and phone integration per market segment.', tags: 'automotive, embedded' },
      { file: 'drone.uvl', title: 'Drone kit', description: 'Frames, flight controllers, power systems and payloads of consumer and survey drones.', tags: 'robotics, hardware' },
    ],
  },
  {
    owner: 'user2@example.com',
    description: 'Software product lines: an online shop, a video streaming service and a text editor built from plug-ins.',
    models: [
      { file: 'web-shop.uvl', title: 'Web shop', description: 'Catalogue, checkout, payment and security options of an online shop.', tags: 'e-commerce, web' },
      { file: 'video-streaming.uvl', title: 'Video streaming service', description: 'Codecs, delivery protocols and subscription tiers.', tags: 'media, web' },
      { file: 'text-editor.uvl', title: 'Text editor', description: 'Editing core, user interfaces and plug-ins of a programmer\'s editor.', tags: 'desktop, tools' },
    ],
  },
  {
    owner: 'user1@example.com',
    description: 'Connected appliances and the Internet of Things: a smart home, a weather station and a coffee machine.',
    models: [
      { file: 'home-automation.uvl', title: 'Home automation', description: 'Hubs, radio protocols and the devices a smart home drives.', tags: 'iot, home' },
      { file: 'weather-station.uvl', title: 'Weather station', description: 'Sensors, controllers, power and uplinks, with a budget constraint.', tags: 'iot, sensors' },
      { file: 'coffee-machine.uvl', title: 'Coffee machine', description: 'Brewing methods, water supply, grinders and milk frothers.', tags: 'appliance, home' },
    ],
  },
  {
    owner: 'user2@example.com',
    description: 'Configurable systems studied in variability research: a database engine, a bicycle configurator and compiler options.',
    models: [
      { file: 'database-engine.uvl', title: 'Embedded database engine', description: 'Storage structures, isolation levels, replication and compression.', tags: 'databases, systems' },
      { file: 'bicycle.uvl', title: 'Bicycle configurator', description: 'Frames, drivetrains, brakes and accessories with prices.', tags: 'configurator, sports' },
      { file: 'compiler.uvl', title: 'Compiler options', description: 'Front ends, targets, optimization passes and sanitizers.', tags: 'compilers, systems' },
    ],
  },
];

export async function seedSampleDatasets(ctx: ModuleContext): Promise<void> {
  // Creation times one minute apart keep "newest first" lists deterministic: dataset 4 is the newest.
  const start = Date.now() - SAMPLES.length * 60_000;
  for (const [i, sample] of SAMPLES.entries()) {
    const user = await ctx.services.auth.getUserByEmail(sample.owner);
    if (!user) throw new Error(`The dataset seeder needs ${sample.owner}; the auth seeder runs first.`);
    const profile = await ctx.services.profile.getByUserId(user.id);
    const author = {
      name: profile ? `${profile.surname}, ${profile.name}` : sample.owner,
      affiliation: profile?.affiliation ?? null,
      orcid: profile?.orcid ?? null,
    };
    await ctx.services.dataset.createFromFiles(
      user.id,
      {
        title: `Sample dataset ${i + 1}`,
        description: sample.description,
        publicationType: 'none',
        publicationDoi: null,
        tags: 'tag1, tag2',
        authors: [author],
      },
      sample.models.map((m) => ({
        path: `${SEED_FOLDER}/${m.file}`,
        meta: {
          name: m.file, title: m.title, description: m.description, publicationType: 'none',
          publicationDoi: null, tags: m.tags, version: '2.0', authors: [author],
        },
      })),
      { doi: `10.1234/dataset${i + 1}`, createdAt: new Date(start + i * 60_000).toISOString() },
    );
  }
  await ctx.services.dataset.mapDoi('10.1234/dataset1-v0', '10.1234/dataset1');
}
