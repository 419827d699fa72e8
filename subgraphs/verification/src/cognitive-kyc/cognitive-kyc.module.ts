import { DocumentService, type DocumentDeps } from '../document/document.service.js';
import type { VerificationCapability } from '../verification.shared.js';
import { CognitiveKycCheck } from './cognitive-kyc.entity.js';
import {
  CognitiveKycResolver,
  CognitiveKycUserFields,
  FraudHistoryResolver,
  resolveCognitiveKycReference,
} from './cognitive-kyc.resolver.js';
import { CognitiveKycService } from './cognitive-kyc.service.js';

/** The AI identity check (selfie against document), over the document capability's reading. */
export const cognitiveKycCapability: VerificationCapability<object, DocumentDeps> = {
  name: 'cognitive-kyc',
  resolvers: [CognitiveKycResolver, FraudHistoryResolver, CognitiveKycUserFields],
  references: { CognitiveKycCheck: resolveCognitiveKycReference },
  entities: [CognitiveKycCheck],
  webhookEvents: ['cognitive_kyc.approved', 'cognitive_kyc.rejected', 'cognitive_kyc.manual_review'],
  personalData: (em, tenant, deps) => {
    const documents = new DocumentService(em, tenant, { files: deps.files, jobs: deps.documentJobs });
    return {
      cognitiveKycChecks: new CognitiveKycService(em, tenant, { vision: deps.vision, documents, keyring: deps.keyring }),
    };
  },
};
